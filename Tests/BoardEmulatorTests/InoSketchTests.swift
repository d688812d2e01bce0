import Foundation
import TestSupport
import Testing

/// Hardware/sketch.mk builds a sketch folder as the Arduino IDE does: its .ino
/// tabs merged into NAME.ino.cpp with the prototypes arduino-cli would add
/// (Hardware/tools/ino_sketch.py), its .c, .cpp and .S files (src/ too) beside.
@Suite struct InoSketchTests {
    let tiltsim = TiltsimCommandTests()

    /// ino_tabs compiles only with those prototypes (a function called before
    /// its multi-line definition, one from the other tab, a template, one whose
    /// address a global takes) and none for a class's inline method or a
    /// default argument; its C and assembly functions link; a narrowing
    /// initializer builds, as with the IDE's -Wno-error=narrowing.
    @Test func aSketchThatCallsFunctionsDefinedLaterRunsInTiltsim() throws {
        let sketch = try SketchFixtures.inoTabs.get()
        let result = try tiltsim.run(["run", sketch.hex, "--expect-serial", "^ino_tabs done$", "--timeout", "1"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == "sum 62\r\nc 42\r\nasm 42\r\nmax 42\r\nhook 1\r\nnarrow 255\r\nino_tabs done\r\n")
    }

    /// `make -s -f Hardware/sketch.mk ARGUMENTS`: its exit status and stderr.
    static func sketchMake(_ arguments: [String]) throws -> (status: Int32, err: String) {
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-f", BuiltFirmware.root + "/Hardware/sketch.mk"] + arguments
        let err = Pipe()
        make.standardError = err
        make.standardOutput = FileHandle.nullDevice
        try make.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        return (make.terminationStatus, message)
    }

    /// The sketch folder NAME with `files`, preprocessed by sketch.mk's own
    /// rule (the compiler's -E for the Uno, then ino_sketch.py): NAME.ino.cpp.
    func merged(_ name: String, _ files: [String: String]) throws -> (text: String, folder: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ino-sketch-\(getpid())-\(UUID().uuidString.prefix(6))").path
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (file, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let made = try Self.sketchMake(["SKETCH_DIR=" + folder, "OUT=" + root + "/out", root + "/out/\(name).ino.cpp"])
        try #require(made.status == 0, "\(made.err)")
        return (try String(contentsOfFile: root + "/out/\(name).ino.cpp", encoding: .utf8), folder)
    }

    /// A library the core does not bundle (Servo, LiquidCrystal: the Arduino
    /// IDE ships them) is named with the fix; only the compiler's "No such
    /// file" and "the preprocessor failed" were said.
    @Test func aLibraryThatIsNotHereIsNamedWithTheFix() throws {
        let root = ScratchSpace.folder("ino-servo")
        let folder = root + "/sweep"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("#include <Servo.h>\nServo s;\nvoid setup() { s.attach(9); }\nvoid loop() {}\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/sweep.ino"))
        let made = try Self.sketchMake(["SKETCH_DIR=" + folder, "OUT=" + root + "/out"])
        #expect(made.status != 0)
        #expect(made.err.contains("ino_sketch.py: Servo.h is no library here (this core bundles Wire, SPI, SoftwareSerial, EEPROM and HID): "
                                  + "give its folder, e.g. LIBS=~/Arduino/libraries/Servo\n"), "\(made.err)")
    }

    /// A source file whose name has a space is named in one line (make split
    /// it: "No rule to make target .../c.o"); a tab's name may have one.
    @Test func aSourceNameWithASpaceIsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ino-space-\(getpid())-\(UUID().uuidString.prefix(6))").path
        let folder = root + "/spaced"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("void setup() {}\nvoid loop() {}\n".utf8).write(to: URL(fileURLWithPath: folder + "/spaced.ino"))
        try Data("int x;\n".utf8).write(to: URL(fileURLWithPath: folder + "/c file.c"))
        let made = try Self.sketchMake(["SKETCH_DIR=" + folder, "OUT=" + root + "/out"])
        let message = made.err
        #expect(made.status != 0)
        #expect(message.contains("\"c file.c\" in \(folder): a name with a space in it, which make cannot build; rename it"), "\(message)")
    }

    /// A folder path with a space ("My Sketches", "out dir") is refused in one
    /// line naming it and the way round; make split it into a circular
    /// dependency and "No rule to make target".
    @Test(arguments: ["SKETCH_DIR", "OUT"])
    func aFolderPathWithASpaceIsRefusedByName(variable: String) throws {
        let root = ScratchSpace.folder("ino-spaced-folder")
        let sketch = root + (variable == "SKETCH_DIR" ? "/My Sketches/blink" : "/blink")
        let out = root + (variable == "OUT" ? "/out dir" : "/out")
        try FileManager.default.createDirectory(atPath: sketch, withIntermediateDirectories: true)
        try Data("void setup() {}\nvoid loop() {}\n".utf8).write(to: URL(fileURLWithPath: sketch + "/blink.ino"))
        let made = try Self.sketchMake(["SKETCH_DIR=" + sketch, "OUT=" + out])
        let given = variable == "OUT" ? out : sketch
        #expect(made.status != 0)
        #expect(made.err.hasSuffix("*** \(variable)=\(given): a path with a space in it, which make cannot build with; copy the folder to a path "
            + "without spaces, or link one there (ln -s \"\(given)\" /tmp/\(variable == "OUT" ? "dir" : "blink")).  Stop.\n"), "\(made.err)")
        #expect(made.err.split(separator: "\n").count == 1, "one line: \(made.err)")
    }

    /// What arduino-cli leaves out: a function in an #ifdef the board does not
    /// take (its types may not exist there), in a namespace or struct, one
    /// already declared; what it keeps: static, extern "C" from its block.
    /// They go before the first definition, here ISR()'s (a macro: the -E
    /// output shows it). The main file includes Arduino.h: no second include;
    /// a BOM and CRLF line ends are dropped.
    @Test func prototypesAreTheOnesArduinoCLIWritesWhereItWritesThem() throws {
        let source = [
            "#include <Arduino.h>", "#ifdef ESP32", "void onlyOnEsp(WiFiClient client) {}", "#endif",
            "namespace tools { int hidden() { return 1; } }", "struct Point { int x; int y() const { return x; } };",
            "void declared(int n);", "ISR(TIMER1_COMPA_vect) { tick(); }", "static void tick() {}",
            "void declared(int n) {}", "extern \"C\" {", "void from_c(void) {}", "}",
            "int used() { return tools::hidden(); }",
        ]
        let (text, folder) = try merged("guards", ["guards.ino": "\u{FEFF}" + source.joined(separator: "\r\n") + "\r\n"])
        let main = "#line 8 \"\(folder)/guards.ino\""
        let expected = ["#line 1 \"\(folder)/guards.ino\""] + source[0..<7] + [
            "#line 9 \"\(folder)/guards.ino\"", "static void tick();",
            "#line 12 \"\(folder)/guards.ino\"", "extern \"C\" void from_c(void);",
            "#line 14 \"\(folder)/guards.ino\"", "int used();",
            main,
        ] + source[7...] + ["", ""]
        #expect(text == expected.joined(separator: "\n"))
    }

    /// Tabs come after the main file in byte order; with no function in the
    /// main file the prototypes go before it, as arduino-cli puts them.
    @Test func tabsFollowTheMainFileAndPrototypesPrecedeAMainFileWithoutFunctions() throws {
        let (text, folder) = try merged("tabs", [
            "tabs.ino": "int count;\n", "b.ino": "void loop() { count++; }\n", "a.ino": "void setup() {\n  loop();\n}\n",
        ])
        #expect(text == """
            #include <Arduino.h>
            #line 1 "\(folder)/a.ino"
            void setup();
            #line 1 "\(folder)/b.ino"
            void loop();
            #line 1 "\(folder)/tabs.ino"
            int count;

            #line 1 "\(folder)/a.ino"
            void setup() {
              loop();
            }

            #line 1 "\(folder)/b.ino"
            void loop() { count++; }


            """)
    }
}
