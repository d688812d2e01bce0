import TiltPipeline

extension Failure {
    /// A replay file that is not a good recording: TiltPipeline's line plus how
    /// to make a good one with this tool (the library does not know the options).
    init(replaying file: String, _ error: Recording.ReadError) {
        let fix = switch error {
        case .notARecording: "; for CSV samples use a .csv file, for a raw capture record with --record"
        case .tooShort: "; record again with --record"
        case .badDirection: ""
        }
        self.init(.badFile, "\(file): \(error.description)\(fix)")
    }
}
