import TiltAssets
import TiltPhysics
import TiltPipeline

/// The drawer's part of a run's output: log lines and `--on-pin`.
extension RunOutput {
    /// An item's name, for people and hooks.
    func itemName(_ index: Int) -> String { JSONLines.itemName(index, TiltAssets.itemNames) }

    /// A log line (or the view's message) for a drawer event.
    func sayDrawer(_ event: HostEvent) {
        switch event {
        case .drawer(let tick, let open):
            if open {
                say("drawer opened: tilt sideways to choose, tip toward you to pull an item out")
            } else if view != nil, let pin = pinSaid, pin.timeMicros == tick.timeMicros {
                say(pin.text + "; drawer closed")  // the drop's tick: where the pin went stays in sight
            } else {
                say("drawer closed")
            }
        case .pulledOut(_, let item):
            say("pulled \(itemName(item)) out of the drawer: steer it, then hold still to drop it")
        case .pinned(let tick, let pin, let all):
            // Saved before it is announced: whoever reads the line finds the file written.
            var failure: Failure?
            var elsewhere = 0
            if let pinStore {
                do throws(Failure) { elsewhere = try save(all, to: pinStore) } catch { failure = error }
            }
            let text = "pin: \(itemName(pin.item)) dropped at \(pin.x),\(pin.y)"
            pinSaid = (tick.timeMicros, text)
            say(text)
            // Not "keeps its N pins": that count is this board's list, with pins `pins remove` took from the file.
            if let failure { say("\(failure.message); this pin is not saved: the map shows it until this run ends", level: .warning) }
            if elsewhere > 0, let pinStore {
                say("\(pinStore.path) also keeps \(ForPeople.count(elsewhere, "pin")) another run saved meanwhile; this board shows them from its next run")
            }
        default:
            break
        }
    }

    /// Saves this run's pins merged with what the file holds now (`PinMerge`);
    /// how many pins on it another run saved since this one last wrote.
    func save(_ ours: [Pin], to store: PinStore) throws(Failure) -> Int {
        // A file that does not read now (a hand edit half done) is written over, as before.
        let disk = (try? store.load(bounded: false)) ?? pinsWritten
        let merged = PinMerge.merged(before: pinsAtLastSave, ours: ours, disk: disk, capacity: PinBoard.capacity)
        try store.save(merged)
        let elsewhere = PinMerge.removing(pinsWritten, from: disk).count
        pinsAtLastSave = ours
        pinsWritten = merged
        return elsewhere
    }

    /// Starts `--on-pin` with the pin in its environment.
    func firePinHook(_ tick: Tick, _ dropped: Pin) {
        let launch = pin?.fire(environment: [
            ("TILT_T_US", String(tick.timeMicros)),
            ("TILT_ITEM", itemName(dropped.item)),
            ("TILT_PIN_X", String(dropped.x)),
            ("TILT_PIN_Y", String(dropped.y)),
            ("TILT_PORT", port),
        ])
        if case .failed(let message)? = launch {
            say(message, level: .warning)
            if json { console.writeOut(JSONLines.hookFailed(option: "--on-pin", message: message)) }
        }
    }
}
