//! Input from outside the machine's scripts, at the cycle the machine stands at: what a
//! debugger types into the UART, the GPIO levels it drives and the stimuli it raises
//! (`monitor uart rx`, `monitor gpio`, `monitor stimulus`). Each acts when the run goes on,
//! through the device's own event path, as the scripted input of the machine file would at
//! that cycle, and is recorded in the IO record as that input is.

use crate::dev;
use crate::Machine;

impl Machine {
    /// Bytes typed on the UART's host line now (they arrive a byte time apart, at the baud
    /// rate; one arriving when the receive FIFO is full is lost, as on the line of `--uart`).
    /// None is queued unless all fit in the line's queue: `Err(room)`.
    pub fn type_uart(&mut self, bytes: &[u8]) -> Result<(), usize> {
        let now = self.hart.cycle;
        self.bus.dev.uart.type_host(bytes, now, &self.bus.clock)?;
        self.bus.touched |= 1 << dev::Id::uart.index();
        Ok(())
    }

    /// Drives GPIO input pin `pin` (0..31) to `level` now.
    pub fn drive_gpio(&mut self, pin: u8, level: bool) {
        let now = self.hart.cycle;
        self.bus.dev.io.drive(pin, level, now);
        self.bus.touched |= 1 << dev::Id::io.index();
    }

    /// Raises stimulus line `line` (0..14) now.
    pub fn raise_stimulus(&mut self, line: u8) {
        let now = self.hart.cycle;
        self.bus.dev.intc.raise(line, now);
        self.bus.touched |= 1 << dev::Id::intc.index();
    }

    /// The fast line scripted GPIO input pin `pin` latches, if any (`[[io.pin]]`'s `line`).
    pub fn gpio_line(&self, pin: u8) -> Option<u8> {
        self.bus.dev.io.line_of(pin)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{MachineConfig, RAM_BASE};
    use crate::elf::{Image, Segment};
    use crate::record::IoKind;
    use crate::Machine;
    use std::sync::atomic::AtomicBool;

    /// A machine spinning on `j .` with the scripted pin 5 on line 6.
    fn spinning() -> Machine {
        let cfg =
            MachineConfig::from_str("[[io.pin]]\npin = 5\nline = 6\nchanges = []\n", "m.toml")
                .unwrap();
        let image = Image {
            entry: RAM_BASE,
            segments: vec![Segment {
                addr: RAM_BASE,
                data: 0x0000_006fu32.to_le_bytes().to_vec(),
            }],
            symbols: vec![],
            sections: vec![],
        };
        Machine::new(&cfg, &image, 1, Box::new(std::io::sink()))
    }

    #[test]
    fn inputs_act_when_the_run_goes_on_and_are_recorded() {
        let mut m = spinning();
        let stop = AtomicBool::new(false);
        m.run(Some(1000), &stop);
        let at = m.hart.cycle;
        m.raise_stimulus(3);
        m.drive_gpio(5, true);
        m.drive_gpio(7, false); // no change: not recorded
        assert_eq!(m.type_uart(b"ab"), Ok(()));
        assert!(m.record().is_empty(), "nothing acts before the run goes on");
        m.run(Some(at + 20_000), &stop);
        let rows: Vec<(u64, IoKind, u32, u32)> = m
            .record()
            .iter()
            .map(|e| (e.cycle, e.kind, e.port, e.value))
            .collect();
        // 115,200 baud at 100 MHz: a byte ends 8,681 cycles after the line is free.
        assert_eq!(
            rows,
            [
                (at, IoKind::GpioIn, 5, 1),
                (at, IoKind::Stimulus, 3, 0),
                (at + 8681, IoKind::UartRx, 2, b'a' as u32),
                (at + 2 * 8681, IoKind::UartRx, 2, b'b' as u32),
            ]
        );
        assert_ne!(
            m.bus.dev.intc.pending & 1 << 3,
            0,
            "the stimulus line latched"
        );
        assert_eq!(m.gpio_line(5), Some(6));
        assert_eq!(m.gpio_line(7), None);
    }

    #[test]
    fn the_uart_line_holds_a_bounded_queue() {
        let mut m = spinning();
        let room = crate::dev::uart::host::HOST_QUEUE;
        assert_eq!(m.type_uart(&vec![b'x'; room - 1]), Ok(()));
        assert_eq!(m.type_uart(b"yz"), Err(1), "refused whole");
        assert_eq!(m.type_uart(b"y"), Ok(()));
    }
}
