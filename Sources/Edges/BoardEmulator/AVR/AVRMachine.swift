import CBoardParts
import Foundation
import SerialIO
import SystemPackage
import TiltCore
import TiltDisplay

/// An ATmega328P running firmware in simavr with its parts (MPU-6050, SSD1306,
/// UART0), stepped by its owner: no thread, no clock, no pty. The same inputs
/// at the same simulated instants give the same outputs, run after run.
///
/// `AVRBoard` drives one on a thread against the wall clock and a pty;
/// `SketchRun` (`tiltsim run`) drives one as fast as it goes and checks what it
/// prints and shows. Not thread-safe: one owner at a time.
public final class AVRMachine {
    /// What to build.
    public struct Configuration: Sendable {
        /// An ELF built by avr-gcc, or an Intel HEX file (the Arduino IDE's export).
        public var firmwarePath: String
        /// The simavr core to build (`avr_make_mcu_by_name`); the firmware must be built for it.
        public var mcu = "atmega328p"
        /// CPU clock, Hz (an Uno's crystal: 16 MHz); sets UART baud timing and cycle counts.
        public var frequency: UInt32 = 16_000_000
        /// The MPU-6050's TWI address (0x69 for a part with AD0 high); nil: no
        /// sensor on the bus (every access NACKed).
        public var sensorAddress: UInt8? = 0x68
        /// Where the MPU-6050's INT pin is wired (D2 = INT0, as sketches expect); nil: not wired.
        public var sensorInterruptPin: AVRPin? = .d2
        /// The sensor's WHO_AM_I: 0x68 an MPU-6050; others model the MPU-6500
        /// family and the look-alikes (`MPU6050Model.whoAmI`).
        public var sensorWhoAmI: UInt8 = 0x68
        /// The SSD1306's TWI address (0x3D for a module with SA0 high).
        public var displayAddress: UInt8 = 0x3C
        /// The display's controller: an SSD1306, or the SH1106 of 1.3" modules.
        public var display: EmulatedDisplay = .ssd1306
        /// The fastest I2C clock the display answers at, Hz; nil: any (many
        /// modules take 1 MHz). Above it the display does not acknowledge.
        public var displayMaxClockHz: UInt32?
        /// What the MPU-6050 feels, asked at simulated µs since power-on.
        public var motionSource: any MotionSource
        /// VCC, AVCC and AREF, mV: analogRead's reference by default, and what
        /// reading the 1.1 V bandgap against it tells a sketch (readVcc).
        public var supplyMillivolts: UInt32 = 5000
        /// The UART the machine's serial input and output are: 0 the sketch's
        /// Serial (a 32U4's USB), 1–3 the Mega's Serial1–3 (a Wokwi diagram's
        /// `$serialMonitor` wires). One the chip lacks is refused.
        public var serialPort = 0

        /// An atmega328p at 16 MHz with the sensor at 0x68 (INT on D2) and the display at 0x3C, lying face-up unless told.
        public init(firmwarePath: String, motionSource: any MotionSource = ConstantMotionSource.faceUp) {
            self.firmwarePath = firmwarePath
            self.motionSource = motionSource
        }

        /// The core and clock of `board`'s chip (its wiring stays as set).
        public mutating func configure(for board: ArduinoBoard) {
            mcu = board.mcu
            frequency = board.frequency
            supplyMillivolts = board.supplyMillivolts
        }
    }

    /// Simulated time per `runBatch()`.
    public static let batchMicros: UInt64 = 1000

    /// What the machine was built with.
    public let configuration: Configuration
    private var avr: OpaquePointer?
    private var displayPart: OpaquePointer?
    let sensor: MPU6050Device
    let uart: AVRUART
    private var displayReader = SSD1306Reader()
    private var displayCapture: SSD1306Capture?
    private var lastDisplay = AVRDisplayFrame()
    private var glassProbe: GlassStatsProbe?
    private var rangers: [UltrasonicRanger] = []
    private var humiditySensors: [HumiditySensor] = []
    private var loadCells: [LoadCellAmplifier] = []
    private var oneWireBuses: [OneWireBus] = []

    /// Loads the firmware (ELF or Intel HEX, told apart by content) and wires the parts.
    public init(_ configuration: Configuration) throws(AVRBoardError) {
        self.configuration = configuration
        let avr = try Self.load(configuration)
        guard configuration.serialPort == 0 || cbp_uart_irq(avr, Int32(configuration.serialPort), 0) != nil else {
            cbp_avr_destroy(avr)
            throw .noSuchSerialPort(configuration.serialPort, mcu: configuration.mcu)
        }
        self.avr = avr
        uart = AVRUART(avr: avr, port: configuration.serialPort)
        sensor = MPU6050Device(avr: avr, address: configuration.sensorAddress,
                               interruptPin: configuration.sensorInterruptPin, whoAmI: configuration.sensorWhoAmI,
                               source: configuration.motionSource)
        cbp_avr_set_supply(avr, configuration.supplyMillivolts)
        displayPart = cbp_ssd1306_create_kind(avr, configuration.displayAddress, configuration.display.kind)
        if let hz = configuration.displayMaxClockHz { cbp_ssd1306_set_max_clock(displayPart, hz) }
        displayCapture = SSD1306Capture(avr: avr, part: displayPart)
        // The serial line idles high: the USB-serial bridge's TX (or a Wokwi
        // serial monitor's) drives RXD through 1 kΩ, so a sketch reading D0
        // before Serial.begin sees HIGH, as on a board (it read 0).
        if let rx = AVRChip(mcu: configuration.mcu)?.receivePin(ofUART: configuration.serialPort) { rx.pull(on: avr, high: true) }
    }

    deinit { destroy() }

    /// Bytes simavr's data space holds (every 16-bit address once built: a
    /// sketch's stray pointer stays inside it; cbp_avr_install_models).
    var dataSpaceBytes: Int { avr.map { cbp_avr_data_space($0) } ?? 0 }

    /// Frees simavr; the machine cannot run afterwards. Idempotent.
    func destroy() {
        guard let avr else { return }
        glassProbe?.detach()
        glassProbe = nil
        uart.probe = nil
        sensor.detach()
        let parts: [[PinWatchingPart]] = [rangers, humiditySensors, loadCells, oneWireBuses]
        for part in parts.joined() { part.detach() }
        (rangers, humiditySensors, loadCells, oneWireBuses) = ([], [], [], [])
        uart.detach()
        displayCapture?.detach()
        displayCapture = nil
        cbp_ssd1306_destroy(displayPart)
        displayPart = nil
        cbp_avr_destroy(avr)
        self.avr = nil
    }

    // MARK: Time

    /// Simulated time since power-on (it keeps counting across resets).
    public var simulatedMicros: UInt64 {
        guard let avr else { return 0 }
        return AVRClock.micros(cycle: cbp_avr_cycle(avr), frequency: configuration.frequency)
    }

    /// Why the core stopped (crashed, or slept with interrupts off), or nil while it runs.
    public var haltReason: String? {
        guard let avr else { return "the board is stopped" }
        return Self.haltReason(cbp_avr_state(avr), pastFlash: cbp_avr_crashed_past_flash(avr))
    }

    /// True once the core crashed (bad opcode, jump or stack), as opposed to
    /// stopping on purpose (sleeping with interrupts off).
    public var crashed: Bool {
        guard let avr else { return false }
        return cbp_avr_state(avr) == Int32(CBP_STATE_CRASHED)
    }

    /// Runs one batch (1 ms of simulated time, unless the core halts first).
    public func runBatch() {
        guard let avr else { return }
        run(untilCycle: cbp_avr_cycle(avr) + UInt64(configuration.frequency) / 1_000_000 * Self.batchMicros)
    }

    /// Runs until simulated time reaches `micros` (or the core halts).
    public func run(untilMicros micros: UInt64) {
        let f = UInt64(configuration.frequency)
        run(untilCycle: micros / 1_000_000 * f + micros % 1_000_000 * f / 1_000_000)
    }

    private func run(untilCycle cycle: UInt64) {
        guard let avr, haltReason == nil else { return }
        _ = cbp_avr_run_until(avr, cycle)
        uart.feed()
    }

    /// The next batch's end, in simulated µs.
    var nextBatchMicros: UInt64 {
        guard let avr else { return 0 }
        let f = UInt64(configuration.frequency)
        return AVRClock.micros(cycle: cbp_avr_cycle(avr) + f / 1_000_000 * Self.batchMicros, frequency: configuration.frequency)
    }

    // MARK: Control

    /// Presses reset: the core restarts from address 0; the sensor and the display
    /// keep their state (they are separate chips). Also revives a halted core.
    public func reset() {
        guard let avr else { return }
        cbp_avr_reset(avr)
        uart.coreDidReset()
        glassProbe?.boardDidStart()
    }

    /// Power off and on: the core, the sensor and the display start over; the
    /// UART's queues are emptied.
    public func powerCycle() {
        guard let avr else { return }
        uart.clear()
        sensor.powerOn()
        cbp_ssd1306_power_on(displayPart)
        cbp_avr_reset(avr)
        uart.coreDidReset()
        glassProbe?.boardDidStart()
    }

    /// Whether the sensor module is wired to the board: false takes it off the
    /// bus (every access NACKed, INT still) as a loose jumper would; true puts
    /// it back, powered on again from reset.
    public var sensorConnected: Bool {
        get { sensor.connected }
        set { sensor.setConnected(newValue) }
    }

    /// What the sensor feels from its next sample on.
    public var motionSource: any MotionSource {
        get { sensor.source }
        set { sensor.source = newValue }
    }

    // MARK: Pins

    /// A pin's level: what the firmware last wrote to its PORT bit (an output,
    /// or the pull-up of an input), or what `drivePin` last drove, whichever came later.
    public func pinLevel(_ pin: AVRPin) -> Bool {
        guard let avr, let port = pin.port.asciiValue else { return false }
        return cbp_irq_value(cbp_ioport_pin_irq(avr, CChar(bitPattern: port), Int32(pin.bit))) != 0
    }

    /// Whether a timer's compare output drives `pin` (analogWrite's PWM, or
    /// clear or set on a match): its level is not modelled on the pin, which
    /// reads its PORT bit or the last edge instead.
    public func isTimerDriven(_ pin: AVRPin) -> Bool {
        guard let avr, let port = pin.port.asciiValue else { return false }
        return cbp_pin_timer_driven(avr, CChar(bitPattern: port), pin.bit)
    }

    /// Drives an input pin from outside (a button to ground or to 5 V): the
    /// firmware reads this level, whatever it writes to the pin's PORT bit
    /// meanwhile, and pin-change or external interrupts follow.
    public func drivePin(_ pin: AVRPin, high: Bool) {
        guard let avr else { return }
        pin.drive(on: avr, high: high)
    }

    /// Lets go of a pin `drivePin` drove (a button released): it reads a
    /// resistor's pull (`pullPin`) if one is there, else its own pull-up,
    /// else what it last read (a floating input).
    public func releasePin(_ pin: AVRPin) {
        guard let avr else { return }
        pin.release(on: avr)
    }

    /// A resistor from the pin to 5 V (`high`) or GND: the pin reads that
    /// while nothing drives it (a pressed button wins over it).
    public func pullPin(_ pin: AVRPin, high: Bool) {
        guard let avr else { return }
        pin.pull(on: avr, high: high)
    }

    /// A wire between two of the chip's pins (a jumper, a loopback from TX to
    /// RX): an output at either end drives the other end's input, a pull-up
    /// pulls it; wires that share a pin make one net. False when the chip
    /// lacks a pin or the wires are too many (16 nets of 8 pins).
    @discardableResult
    public func joinPins(_ a: AVRPin, _ b: AVRPin) -> Bool {
        guard let avr, let portA = a.port.asciiValue, let portB = b.port.asciiValue else { return false }
        return cbp_jumper_add(avr, CChar(bitPattern: portA), UInt8(a.bit), CChar(bitPattern: portB), UInt8(b.bit))
    }

    /// Each net of `joinPins` wires whose outputs were at odds, the first
    /// pair and when, in the order they began.
    public var pinShorts: [PinShort] {
        guard let avr else { return [] }
        var shorts = [cbp_jumper_short](repeating: cbp_jumper_short(), count: 16)
        let count = Int(cbp_jumper_shorts(avr, &shorts, Int32(shorts.count)))
        return shorts.prefix(count).map { s in
            PinShort(first: AVRPin(port: Character(UnicodeScalar(UInt8(bitPattern: s.port_a))), bit: s.bit_a),
                     second: AVRPin(port: Character(UnicodeScalar(UInt8(bitPattern: s.port_b))), bit: s.bit_b),
                     atMicros: AVRClock.micros(cycle: s.cycle, frequency: configuration.frequency), times: Int(s.count),
                     lastMicros: AVRClock.micros(cycle: s.last_cycle, frequency: configuration.frequency))
        }
    }

    /// Wires an HC-SR04 ultrasonic ranger to `trigger` and `echo`, its
    /// obstacle `centimetres` away; returns its index for `setRangerDistance`.
    @discardableResult
    public func addUltrasonicRanger(trigger: AVRPin, echo: AVRPin, centimetres: Double) -> Int {
        guard let avr else { return -1 }
        rangers.append(UltrasonicRanger(avr: avr, trigger: trigger, echo: echo, centimetres: centimetres))
        return rangers.count - 1
    }

    /// Moves ranger `index`'s obstacle: measurements from now on see `centimetres`.
    public func setRangerDistance(_ index: Int, centimetres: Double) {
        guard rangers.indices.contains(index) else { return }
        rangers[index].centimetres = centimetres
    }

    /// Wires a DHT22 temperature and humidity sensor's data line to `pin`;
    /// returns its index for `setHumiditySensor`.
    @discardableResult
    public func addHumiditySensor(pin: AVRPin, celsius: Double, humidity: Double) -> Int {
        guard let avr else { return -1 }
        humiditySensors.append(HumiditySensor(avr: avr, pin: pin, celsius: celsius, humidity: humidity))
        return humiditySensors.count - 1
    }

    /// What DHT22 `index` reads from the next request on (nil: unchanged).
    public func setHumiditySensor(_ index: Int, celsius: Double?, humidity: Double?) {
        guard humiditySensors.indices.contains(index) else { return }
        if let celsius { humiditySensors[index].celsius = celsius }
        if let humidity { humiditySensors[index].humidity = humidity }
    }

    /// Wires an HX711 load cell amplifier's SCK to `clock` and DT to `data`,
    /// `kilograms` on its cell; returns its index for `setLoadCell`.
    @discardableResult
    public func addLoadCell(clock: AVRPin, data: AVRPin, kilograms: Double) -> Int {
        guard let avr else { return -1 }
        loadCells.append(LoadCellAmplifier(avr: avr, clock: clock, data: data, kilograms: kilograms))
        return loadCells.count - 1
    }

    /// Puts `kilograms` on load cell `index`: conversions from now on read it.
    public func setLoadCell(_ index: Int, kilograms: Double) {
        guard loadCells.indices.contains(index) else { return }
        loadCells[index].kilograms = kilograms
    }

    /// A DS18B20 on a 1-Wire line: its family code (0x28), six serial bytes
    /// (its ROM's bytes 1 to 6) and the °C its conversions read.
    public struct ThermometerProbe: Sendable {
        /// ROM byte 0.
        public var familyCode: UInt8
        /// ROM bytes 1 to 6.
        public var serial: [UInt8]
        /// What a conversion reads, −55 to 125 °C.
        public var celsius: Double
        /// A probe as described.
        public init(familyCode: UInt8, serial: [UInt8], celsius: Double) {
            self.familyCode = familyCode
            self.serial = serial
            self.celsius = celsius
        }
    }

    /// Puts DS18B20 thermometers on a 1-Wire line on `pin` (several share
    /// it, each with its own ROM); returns the line's index for `setProbeTemperature`.
    @discardableResult
    public func addOneWireBus(pin: AVRPin, probes: [ThermometerProbe]) -> Int {
        guard let avr else { return -1 }
        let probes = probes.map { TemperatureProbe(familyCode: $0.familyCode, serial: $0.serial, celsius: $0.celsius) }
        oneWireBuses.append(OneWireBus(avr: avr, pin: pin, probes: probes))
        return oneWireBuses.count - 1
    }

    /// What probe `probe` on line `bus` reads from its next conversion on.
    public func setProbeTemperature(bus: Int, probe: Int, celsius: Double) {
        guard oneWireBuses.indices.contains(bus), oneWireBuses[bus].probes.indices.contains(probe) else { return }
        oneWireBuses[bus].probes[probe].celsius = celsius
    }

    /// Puts `millivolts` on ADC input `channel` (0…7, or 0…15 on the Mega):
    /// analogRead converts it against a 5 V reference. False if there is no such channel.
    @discardableResult
    public func setAnalogInput(channel: Int, millivolts: UInt32) -> Bool {
        guard let avr else { return false }
        return cbp_adc_set_millivolts(avr, Int32(channel), millivolts)
    }

    // MARK: EEPROM

    /// The EEPROM's bytes (non-volatile: a reset or a power cycle keeps them).
    /// Setting writes from its first byte; more than it holds is ignored.
    public var eeprom: [UInt8] {
        get {
            guard let avr else { return [] }
            var bytes = [UInt8](repeating: 0xFF, count: Int(cbp_eeprom_size(avr)))
            bytes.withUnsafeMutableBufferPointer { cbp_eeprom_get(avr, $0.baseAddress, UInt32($0.count)) }
            return bytes
        }
        set {
            guard let avr, newValue.count <= Int(cbp_eeprom_size(avr)) else { return }
            newValue.withUnsafeBufferPointer { cbp_eeprom_set(avr, $0.baseAddress, UInt32($0.count)) }
        }
    }

    // MARK: Serial

    /// The baud rate the sketch's Serial sends at (UBRR0, U2X0); 0 while its
    /// transmitter is off or when Serial is the chip's USB (no rate on the wire).
    public var serialBaud: Int { avr.map { Int(cbp_serial_baud($0)) } ?? 0 }

    /// Bytes the firmware sent that were not taken yet.
    public var pendingSerialOutput: Int { uart.output.count }

    /// Takes (removes and returns) what the firmware sent so far.
    public func takeSerialOutput() -> [UInt8] {
        let bytes = uart.output.bytes
        uart.consumeOutput(bytes.count)
        return bytes
    }

    /// Queues bytes for the firmware's UART; returns how many fit (4 KiB queue).
    @discardableResult
    public func sendSerial(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { uart.send($0) }
    }

    /// Room in the input queue.
    public var serialInputRoom: Int { uart.inputRoom }

    /// Whether a client has the serial port open. A native-USB board (the
    /// ATmega32U4's) sees it as DTR, and its CDC sends nothing while DTR is
    /// down; a UART has no such line. Open until told otherwise.
    public func setSerialPortOpen(_ open: Bool) {
        guard let avr else { return }
        cbp_usb_serial_set_dtr(avr, open)
    }

    /// Takes the reports a native-USB board sent on its other interrupt IN
    /// endpoints (`USBReport`), oldest first; none on a board without USB.
    /// The host keeps the last 32 until taken (`usbReportsDropped` counts the rest).
    public func takeUSBReports() -> [USBReport] {
        guard let avr else { return [] }
        var reports: [USBReport] = []
        var bytes = [UInt8](repeating: 0, count: 64)
        var endpoint: UInt8 = 0
        var cycle: UInt64 = 0
        while true {
            let size = cbp_usb_serial_take_report(avr, &endpoint, &cycle, &bytes, bytes.count)
            guard size >= 0 else { return reports }
            reports.append(USBReport(endpoint: endpoint, atMicros: AVRClock.micros(cycle: cycle, frequency: configuration.frequency),
                                     bytes: Array(bytes.prefix(Int(size)))))
        }
    }

    /// Reports lost because more than 32 were waiting.
    public var usbReportsDropped: UInt32 {
        guard let avr else { return 0 }
        return cbp_usb_serial_reports_dropped(avr)
    }

    /// Bytes the firmware sent since power-on, bytes fed to it, and output dropped
    /// because nobody took it (more than 64 KiB waiting).
    public var serialCounts: (fromAVR: UInt64, toAVR: UInt64, dropped: UInt64) {
        (uart.bytesFromAVR, uart.bytesToAVR, uart.droppedOutput)
    }

    /// MPU-6050 samples taken.
    public var sensorSamples: UInt64 { sensor.model.sampleCount }

    // MARK: Display

    /// The SSD1306's memory and state now.
    public var display: AVRDisplayFrame {
        _ = refreshDisplay()
        return lastDisplay
    }

    /// Reads the SSD1306 (scrolling brought up to now) if it changed since the
    /// last call; true if it did.
    func refreshDisplay() -> Bool {
        guard let frame = displayReader.frameIfChanged(displayPart) else { return false }
        lastDisplay = frame
        return true
    }

    /// Asks for the display as it is at simulated time `micros` exactly (a timer
    /// on the core's cycle counter takes it, so it is the same in every run);
    /// false if that time has passed. Collect it with `takeDisplayCaptures()`.
    @discardableResult
    public func captureDisplay(atMicros micros: UInt64) -> Bool {
        displayCapture?.request(atMicros: micros) ?? false
    }

    /// The displays captured since the last call, by simulated µs.
    public func takeDisplayCaptures() -> [UInt64: AVRDisplayFrame] {
        displayCapture?.take() ?? [:]
    }

    /// SCL edges the sketch made with the port while the TWI was on: a software
    /// I2C master on the TWI's pins after `Wire.begin()`, which reaches nothing.
    public var bitBangedEdgesUnderTWI: UInt32 {
        guard let avr else { return 0 }
        return cbp_soft_i2c_blocked_edges(avr)
    }

    /// The first of the chip's serial ports the sketch wrote to with its
    /// transmitter off (Serial.print before Serial.begin), as the sketch
    /// names it: "Serial", or "Serial1"… (on a 32U4, whose Serial is USB,
    /// UART1 is Serial1). The chip sends none of those bytes, and once 64
    /// wait, Serial.write waits for ever. Nil when none was.
    public var serialWrittenWithTransmitterOff: String? {
        guard let avr else { return nil }
        let usbSerial = configuration.mcu == "atmega32u4"
        for uart in 0..<4 where cbp_uart_writes_with_transmitter_off(avr, Int32(uart)) > 0 {
            return uart == 0 && !usbSerial ? "Serial" : "Serial\(uart)"
        }
        return nil
    }

    /// How the sketch called a 7-bit I2C address on the TWI since power-on.
    public enum AddressCall: Sendable, Equatable {
        /// Not called.
        case never
        /// Called, and no part answered (NACK) each time.
        case unanswered
        /// A part answered (ACK) at least once.
        case answered
    }

    /// How the sketch called `address` on the TWI since power-on.
    public func called(address: UInt8) -> AddressCall {
        guard let avr else { return .never }
        switch cbp_twi_addressed(avr, address) {
        case 0: return .never
        case 1: return .unanswered
        default: return .answered
        }
    }

    /// CPU cycles the I2C bus has been busy since power-on (START, bytes, STOP).
    public var busCycles: UInt64 {
        guard let avr else { return 0 }
        return cbp_twi_bus_cycles(avr)
    }

    /// Bytes the firmware has written to the SSD1306 since power-on (address,
    /// control and payload bytes) and the transactions they came in: divided by
    /// the glass frames, the bytes and transactions a frame for `glassBusLimit`.
    public var displayTraffic: (bytes: UInt64, transactions: UInt64) {
        guard let displayPart else { return (0, 0) }
        var transactions: UInt64 = 0
        let bytes = cbp_ssd1306_traffic(displayPart, &transactions)
        return (bytes, transactions)
    }

    /// The I2C bus's frame-rate ceiling at the clock the firmware has set
    /// (TWBR, TWPS) right now; nil before the machine is loaded.
    public var glassBusLimit: GlassBusLimit? {
        guard let avr else { return nil }
        let rate = cbp_twi_bit_rate(avr)
        return GlassBusLimit(cpuHz: UInt64(configuration.frequency), twbr: UInt8(rate & 0xFF),
                             prescalerBits: UInt8((rate >> 8) & 3))
    }

    // MARK: Motion to photon

    /// Starts recording motion to photon (docs/emulator.md): from now on every
    /// frame that reaches the glass is timed against the sample its view came
    /// from. Start it before the board runs (or just before a reset): the
    /// mirror of the board's scene starts from power-on. `renderer` draws the
    /// art the firmware was built with (TiltAssets' art for ours). Costs
    /// nothing until called; calling again starts over.
    public func recordGlassStats(renderer: ScreenRenderer) {
        guard let avr, let displayPart else { return }
        glassProbe?.detach()
        let probe = GlassStatsProbe(avr: avr, display: displayPart, displayAddress: configuration.displayAddress,
                                    sensor: sensor, renderer: renderer)
        glassProbe = probe
        uart.probe = probe
    }

    /// The glass frames recorded so far with their summary; nil unless `recordGlassStats` was called.
    public var glassStats: GlassStats? {
        guard let glassProbe else { return nil }
        return GlassStats(frames: glassProbe.tracker.frames, bus: glassProbe.displayBus ?? glassBusLimit)
    }

    // MARK: Loading

    /// `pastFlash`: the crash was a jump past the end of flash, which simavr
    /// stops at and the chip wraps around (an outside tester's sketch that ran
    /// into erased flash restarts on a board).
    static func haltReason(_ state: Int32, pastFlash: Bool = false) -> String? {
        switch state {
        case Int32(CBP_STATE_DONE): "the firmware stopped (slept with interrupts off or returned from main); reset() restarts it"
        case Int32(CBP_STATE_CRASHED) where pastFlash:
            "the firmware crashed (it jumped past the end of flash: a bad return address or function pointer, or code run on "
                + "into erased flash, where a board wraps around, often to a restart); reset() restarts it"
        case Int32(CBP_STATE_CRASHED): "the firmware crashed (bad opcode, jump or stack); reset() restarts it"
        default: nil
        }
    }

    /// An ELF through simavr's reader; anything that starts like Intel HEX through `IntelHex`.
    private static func load(_ configuration: Configuration) throws(AVRBoardError) -> OpaquePointer {
        let path = configuration.firmwarePath
        var error = [CChar](repeating: 0, count: 512)
        func reason() -> String { error.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
        // A FIFO's open waits for a writer, a device never ends: a firmware is a regular file.
        if case .success(let status) = FileStatus.of(path), status.kind != .regular {
            throw .elfRefused(path: path, reason: "\(path) is \(status.kind == .directory ? "a folder" : "not a regular file (a FIFO or device)"); "
                              + "pass the .elf or .hex that avr-gcc or the Arduino IDE built")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpenFirmware(path: path, errno: Errno(rawValue: errno))
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        guard IntelHex.looksLikeHex(head) else {
            func refused() -> AVRBoardError {
                let why = reason()
                return why.contains("is not an ELF file") ? .notFirmware(path: path) : .elfRefused(path: path, reason: why)
            }
            if head.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { try checkStructure(handle, path: path) }
            var flash = [UInt8](repeating: 0, count: AVRChip.headBytes)
            let copied = cbp_elf_flash_head(path, &flash, flash.count, &error, error.count)
            guard copied >= 0 else { throw refused() }
            try checkChip(of: flash.prefix(Int(copied)), path: path, configuration)
            guard let avr = cbp_avr_create(path, configuration.mcu, configuration.frequency, &error, error.count) else {
                throw refused()
            }
            return avr
        }
        try? handle.seek(toOffset: 0)
        // A HEX file holds two characters per byte plus framing: 4 MiB covers any AVR's flash.
        guard let data = try? handle.read(upToCount: 4 << 20), let text = String(data: data, encoding: .utf8) else {
            throw .hexNotText(path: path)
        }
        let hex: IntelHex
        do { hex = try IntelHex(parsing: Substring(text)) } catch {
            throw .badHex(path: path, error)
        }
        try checkChip(of: hex.image.prefix(AVRChip.headBytes), path: path, configuration)
        let avr = hex.image.withUnsafeBufferPointer {
            cbp_avr_create_from_image($0.baseAddress, UInt32($0.count), configuration.mcu, configuration.frequency,
                                      &error, error.count)
        }
        guard let avr else { throw .imageRefused(path: path, reason: reason()) }
        guard cbp_avr_install_models(avr) else {
            cbp_avr_destroy(avr)
            throw .outOfMemory(path: path)
        }
        return avr
    }

    /// An ELF's structure, checked before simavr's reader follows it (`ELFStructure`): read whole, up to its limit.
    private static func checkStructure(_ handle: FileHandle, path: String) throws(AVRBoardError) {
        try? handle.seek(toOffset: 0)
        let bytes = Array((try? handle.read(upToCount: ELFStructure.maximumBytes + 1)) ?? Data())
        guard bytes.count <= ELFStructure.maximumBytes else {
            throw .elfRefused(path: path, reason: "\(path) is larger than any AVR ELF (over \(ELFStructure.maximumBytes >> 20) MiB); "
                              + "pass the .elf or .hex that avr-gcc or the Arduino IDE built")
        }
        if let problem = ELFStructure.problem(in: bytes) { throw .damagedELF(path: path, reason: problem) }
    }

    /// Refuses an image linked for another of our boards' chips than the core's (`AVRChip`).
    private static func checkChip(of flash: ArraySlice<UInt8>, path: String, _ configuration: Configuration) throws(AVRBoardError) {
        guard let core = AVRChip(mcu: configuration.mcu), let chip = AVRChip.linkedFor(flash: flash), chip != core else { return }
        throw .builtForAnotherChip(path: path, linkedFor: chip, core: core)
    }
}
