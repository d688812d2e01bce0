/// Checks an AVR ELF's structure before simavr's reader sees it. simavr 1.6
/// (`elf_read_firmware`) trusts the file: a section name it cannot find is a
/// NULL it compares (e_shstrndx 0xFFFE crashed it), a symbol table's entry
/// size divides, a section whose data lies past the end of the file is a
/// NULL it dereferences, `.mmcu` tags are copied into fixed buffers, `.lock`
/// is read from `.fuse`. Every offset, size, index and link it follows is
/// checked here against the file (ELF32, System V ABI / gABI 4.1), in 64-bit
/// arithmetic; anything out of place is a damaged file, refused in one line.
public enum ELFStructure {
    /// The largest firmware ELF read (avr-gcc's, debug sections included, are
    /// well under 1 MiB; simavr reads the file whole).
    public static let maximumBytes = 64 << 20
    /// More symbols than any AVR program has: simavr sorts them by insertion,
    /// which for hundreds of thousands would take minutes.
    static let maximumSymbols = 32_768
    /// simavr's fixed room: `fuse[6]`, `mmcu[64]`, `tracename[128]`, `trace[32]`.
    static let fuseBytes = 6, mmcuName = 64, traceName = 128, traces = 32

    static let ehdrSize = 52, shdrSize = 40, phdrSize = 32, symSize = 16
    static let nullType: UInt32 = 0, symtabType: UInt32 = 2, strtabType: UInt32 = 3, nobitsType: UInt32 = 8
    static let compressed: UInt32 = 0x800  // SHF_COMPRESSED

    /// What is wrong with `bytes`, an ELF for the AVR (32-bit, machine 83), in
    /// a few words ("section 5's data ends past the end of the file"); nil
    /// when its structure holds, or when it is no 32-bit AVR ELF at all (its
    /// reader says which).
    public static func problem(in bytes: [UInt8]) -> String? {
        let file = Reader(bytes: bytes)
        guard bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]), bytes.count >= 20, bytes[4] == 1, file.u16(18) == 83 else { return nil }
        guard bytes.count >= ehdrSize else { return "the header is cut short (\(bytes.count) bytes)" }
        guard bytes[5] == 1 else { return "its data is not little-endian, as the AVR's is" }
        guard bytes[6] == 1, file.u32(20) == 1 else { return "an unknown ELF version" }
        guard file.u16(40) == ehdrSize else { return "the header says it is \(file.u16(40)) bytes, not \(ehdrSize)" }
        let phoff = Int(file.u32(28)), phentsize = file.u16(42), phnum = file.u16(44)
        if phnum > 0 {
            guard phentsize == phdrSize else { return "program headers of \(phentsize) bytes, not \(phdrSize)" }
            guard phoff + phnum * phdrSize <= bytes.count else { return "the program header table ends past the end of the file" }
        }
        let shoff = Int(file.u32(32)), shentsize = file.u16(46), count = file.u16(48), shstrndx = file.u16(50)
        guard count > 0 else { return shoff == 0 ? nil : "no section count (extended numbering)" }  // no sections: no code, said later
        guard shentsize == shdrSize else { return "section headers of \(shentsize) bytes, not \(shdrSize)" }
        guard shoff + count * shdrSize <= bytes.count else { return "the section header table ends past the end of the file" }
        let sections = (0..<count).map { Section(file, at: shoff + $0 * shdrSize) }
        for (index, section) in sections.enumerated() where section.type != nobitsType {
            guard section.offset + section.size <= bytes.count else { return "section \(index)'s data ends past the end of the file" }
        }
        guard shstrndx > 0 && shstrndx < count else { return "its section name table is section \(shstrndx), of \(count)" }
        if let problem = stringTable(sections[shstrndx], file) { return "the section name table \(problem)" }
        var names: [String: [Section]] = [:]
        for (index, section) in sections.enumerated() {
            guard section.name < sections[shstrndx].size else { return "section \(index)'s name lies outside the name table" }
            names[file.string(at: sections[shstrndx].offset + section.name), default: []].append(section)
        }
        // The sections simavr copies from (.bss: only its size).
        for name in [".text", ".data", ".eeprom", ".fuse", ".lock", ".mmcu"] {
            let found = names[name] ?? []
            if found.contains(where: { $0.size > 0 && ($0.type == nobitsType || $0.type == nullType) }) {
                return "its \(name) section holds no data in the file"
            }
            if found.contains(where: { $0.flags & compressed != 0 }) { return "its \(name) section is compressed" }
        }
        if let fuse = names[".fuse"]?.first(where: { $0.size > fuseBytes }) { return "its .fuse section is \(fuse.size) bytes, at most \(fuseBytes)" }
        if names[".lock"] != nil && names[".fuse"] == nil { return "a .lock section without a .fuse section" }
        if let problem = mmcu(names[".mmcu"] ?? [], file) { return "its .mmcu section \(problem)" }
        return symbols(sections, file)
    }

    /// One section header's fields.
    struct Section {
        let name: Int, type: UInt32, flags: UInt32, offset: Int, size: Int, link: Int, entrySize: Int

        init(_ file: Reader, at base: Int) {
            name = Int(file.u32(base))
            type = file.u32(base + 4)
            flags = file.u32(base + 8)
            offset = Int(file.u32(base + 16))
            size = Int(file.u32(base + 20))
            link = Int(file.u32(base + 24))
            entrySize = Int(file.u32(base + 36))
        }
    }

    /// Little-endian fields of the file; reads only inside it (callers check the bounds first).
    struct Reader {
        let bytes: [UInt8]
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        /// The NUL-terminated string at `at` (its table ends with a NUL: checked).
        func string(at: Int) -> String {
            String(decoding: bytes[at...].prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Why `section` cannot be a string table libelf reads (`elf_strptr`
    /// wants SHT_STRTAB, data in the file, a NUL at the end); nil when it can.
    static func stringTable(_ section: Section, _ file: Reader) -> String? {
        guard section.type == strtabType, section.flags & compressed == 0 else { return "is no string table" }
        guard section.size > 0, file.bytes[section.offset + section.size - 1] == 0 else { return "does not end with a NUL" }
        return nil
    }

    /// simavr's `.mmcu` tags (avr_mcu_section.h): each whole, its strings
    /// ending inside it and fitting simavr's buffers, at most 32 traces.
    static func mmcu(_ sections: [Section], _ file: Reader) -> String? {
        var traces = 0
        for section in sections {
            var at = section.offset
            let end = section.offset + section.size
            while at < end {
                guard end - at >= 2, end - at >= 2 + Int(file.bytes[at + 1]) else { return "ends inside a tag" }
                let tag = file.bytes[at], value = file.bytes[(at + 2)..<(at + 2 + Int(file.bytes[at + 1]))]
                let need: Int
                switch tag {
                case 1, 12:  // NAME, VCD_FILENAME: a string simavr copies with strcpy
                    guard let nul = value.firstIndex(of: 0), nul - value.startIndex < (tag == 1 ? mmcuName : traceName) else {
                        return "has a name with no end or too long"
                    }
                    need = 0
                case 2, 3, 4, 5, 13: need = 4  // frequency, vcc, avcc, aref, VCD period
                case 10, 11: need = 2  // command and console registers
                case 14, 15, 16:  // VCD trace, port pin, IRQ: mask, address, then a name
                    traces += 1
                    guard traces <= ELFStructure.traces else { return "asks for more than \(ELFStructure.traces) traces" }
                    guard value.count >= 4, value.dropFirst(3).contains(0) else { return "has a trace with no name" }
                    need = 0
                case 17: need = 3  // a port's external pull
                default: need = 0
                }
                guard value.count >= need else { return "has a tag \(tag) of \(value.count) bytes" }
                at += 2 + value.count
            }
        }
        return nil
    }

    /// Every symbol table simavr reads: whole entries, a string table it
    /// links to, each name inside it, and not more symbols than any program has.
    static func symbols(_ sections: [Section], _ file: Reader) -> String? {
        var total = 0
        for (index, table) in sections.enumerated() where table.type == symtabType {
            guard table.entrySize == symSize, table.size % symSize == 0 else { return "symbol table \(index) has entries of \(table.entrySize) bytes" }
            guard table.flags & compressed == 0 else { return "symbol table \(index) is compressed" }
            guard table.link > 0, table.link < sections.count else { return "symbol table \(index) links to no section (\(table.link))" }
            let strings = sections[table.link]
            if let problem = stringTable(strings, file) { return "symbol table \(index)'s string table \(problem)" }
            total += table.size / symSize
            guard total <= maximumSymbols else { return "more than \(maximumSymbols) symbols" }
            for entry in stride(from: table.offset, to: table.offset + table.size, by: symSize) where Int(file.u32(entry)) >= strings.size {
                return "symbol table \(index) names a symbol outside its string table"
            }
        }
        return nil
    }
}
