import SerialIO
import TiltserialSettings

/// What a run says once when there is no calibration yet (no default config
/// file): which rest pose and mounting it assumes, and how to measure yours.
/// "Once" is kept by a mark in the XDG state folder; when the mark cannot be
/// made, the note simply shows again next time.
enum CalibrationNotice {
    static func text(_ settings: HostSettings) -> String {
        let angle = SettingSpec.spec(key: "restAngleDegrees")!.optionText(.number(settings.physics.restAngleDegrees))
        return "no calibration yet: the rest pose is \(angle)° from face-up (held as you would to look at it; "
            + "a board lying flat scrolls away) and the sensor's axes are \(settings.axes); "
            + "run `tiltserial calibrate` to measure yours (this note shows once)"
    }

    /// Says it unless the mark at `marker` exists, then makes the mark.
    static func sayOnce(_ settings: HostSettings, marker: String?, console: Console) {
        guard let marker, !FileStatus.exists(marker) else { return }
        console.writeErr("tiltserial: \(text(settings))\n")
        guard ConfigFile.makeFolders(ConfigPaths.folder(of: marker)) == nil else { return }
        FileSystem.touch(marker)
    }
}
