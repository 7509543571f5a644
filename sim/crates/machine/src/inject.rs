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
