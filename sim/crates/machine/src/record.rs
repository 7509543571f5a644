//! The IO record: every IO-port write, GPIO pin edge and stimulus event, stamped with the
//! clock cycle and simulated time at which it happened. This is the testbed's oscilloscope.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoKind {
    /// A write to OUT[port].
    Out,
    /// A GPIO pin changed level (port = pin, value = new level).
    Gpio,
    /// A stimulus generator raised its fast IRQ line (port = line, value = event number).
    Stimulus,
    /// A scripted GPIO input pin changed level (port = pin, value = new level).
    GpioIn,
    /// The UART sent a byte: its last bit left the line (value = the byte).
    UartTx,
    /// The UART received a byte: its stop bit arrived (value = the byte; port 1 if it was
    /// lost to a full receive FIFO, else 0).
    UartRx,
}

impl IoKind {
    pub fn name(self) -> &'static str {
        match self {
            IoKind::Out => "out",
            IoKind::Gpio => "gpio",
            IoKind::Stimulus => "stimulus",
            IoKind::GpioIn => "gpio_in",
            IoKind::UartTx => "uart_tx",
            IoKind::UartRx => "uart_rx",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IoEvent {
    pub cycle: u64,
    pub time_fs: u128,
    pub kind: IoKind,
    pub port: u32,
    pub value: u32,
}

impl IoEvent {
    pub fn time_s(&self) -> f64 {
        self.time_fs as f64 / crate::clock::FS_PER_S as f64
    }
}

/// Takes the IO record as the run goes: each call gets the next events, in time order
/// (sorted by cycle; events of one cycle in the order they happened), each event once.
pub type RecordSink = Box<dyn FnMut(&[IoEvent]) -> std::io::Result<()>>;

/// How many events the record holds before it is handed to its sink.
pub const SINK_CHUNK: usize = 1 << 15;
