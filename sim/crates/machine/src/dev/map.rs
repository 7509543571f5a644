//! `devices!`: from the list in `dev/mod.rs`, everything the crate does over all devices:
//! their modules, the bus's `Devices` (a field per device, static dispatch by `Id`), address
//! decoding, the wait states and the devices' own tables of the machine file.

macro_rules! devices {
    ($($base:literal => $name:ident : $ty:ident),* $(,)?) => {
        $(pub mod $name;)*
        $(pub use self::$name::$ty;)*

        /// A device of the list, by its position in it.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum Id {
            $($name,)*
        }

        impl Id {
            pub fn index(self) -> usize {
                self as usize
            }
        }

        /// Number of devices.
        pub const COUNT: usize = [$(Id::$name),*].len();
        /// Every device, in list order.
        pub const ALL: [Id; COUNT] = [$(Id::$name),*];
        /// Their names (the wait-state keys), in list order.
        pub static NAMES: [&str; COUNT] = [$(stringify!($name)),*];
        /// Every device with its base, window and lines, in list order.
        pub const DEVICES: [DeviceInfo; COUNT] = [$(DeviceInfo {
            name: stringify!($name),
            base: $base,
            window: <$ty as Device>::WINDOW,
            title: <$ty as Device>::TITLE,
            lines: <$ty as Device>::LINES,
            table: <<$ty as Device>::Config as DeviceConfig>::TABLE,
            default_toml: <<$ty as Device>::Config as DeviceConfig>::DEFAULT_TOML,
        }),*];

        /// The devices of the bus, by name.
        #[derive(Clone)]
        pub struct Devices {
            $(pub $name: $ty,)*
        }

        impl Devices {
            /// Every device at reset.
            pub fn build(cfg: &MachineConfig, seed: u64) -> Devices {
                Devices {
                    $($name: <$ty as Device>::build(&cfg.devices.$name, cfg, seed),)*
                }
            }

            /// The device whose window holds `addr`, and the offset in it.
            pub fn decode(addr: u32) -> Option<(Id, u32)> {
                $(
                    let off = addr.wrapping_sub($base);
                    if off < <$ty as Device>::WINDOW {
                        return Some((Id::$name, off));
                    }
                )*
                None
            }

            pub fn read_reg(&mut self, id: Id, reg: u32, cx: &mut Access) -> Option<u32> {
                match id {
                    $(Id::$name => Device::read(&mut self.$name, reg, cx),)*
                }
            }

            pub fn write_reg(
                &mut self,
                id: Id,
                reg: u32,
                value: u32,
                mask: u32,
                cx: &mut Access,
            ) -> Option<()> {
                match id {
                    $(Id::$name => Device::write(&mut self.$name, reg, value, mask, cx),)*
                }
            }

            pub fn next_event(&mut self, id: Id, clock: &Clock) -> Option<u64> {
                match id {
                    $(Id::$name => Device::next_event(&mut self.$name, clock),)*
                }
            }

            pub fn advance(&mut self, id: Id, cx: &mut Act) {
                match id {
                    $(Id::$name => Device::advance(&mut self.$name, cx),)*
                }
            }

            pub fn clock_changed(&mut self, at: u64) {
                $(Device::clock_changed(&mut self.$name, at);)*
            }

            /// The mip bits the devices drive now.
            pub fn lines(&self) -> u32 {
                let mut l = 0;
                $(l |= Device::lines(&self.$name) & <$ty as Device>::LINES;)*
                l
            }

            /// The cycle mip bit `bit` rose, if the device driving it knows.
            pub fn rose_at(&self, bit: u32) -> Option<u64> {
                $(
                    if <$ty as Device>::LINES >> bit & 1 != 0 {
                        return Device::rose_at(&self.$name, bit);
                    }
                )*
                None
            }

            pub fn wakes(&self, id: Id) -> u32 {
                match id {
                    $(Id::$name => Device::wakes(&self.$name),)*
                }
            }
        }

        /// Extra wait states per register access, per device (an access costs 2 cycles +
        /// these). TOML: `[wait_states]`, keyed by the devices' names.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct WaitStates {
            $(pub $name: u32,)*
        }

        impl WaitStates {
            pub fn get(&self, id: Id) -> u32 {
                match id {
                    $(Id::$name => self.$name,)*
                }
            }

            pub fn get_mut(&mut self, id: Id) -> &mut u32 {
                match id {
                    $(Id::$name => &mut self.$name,)*
                }
            }
        }

        /// Each device's own table of the machine file ([`DeviceConfig`]).
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct DeviceConfigs {
            $(pub $name: <$ty as Device>::Config,)*
        }

        impl DeviceConfigs {
            /// Applies the tables a machine file names, in list order.
            pub(crate) fn apply(&mut self, raw: &RawTables, cx: &Doc) -> Result<(), ConfigError> {
                $(
                    if let Some(r) = &raw.$name {
                        DeviceConfig::apply(&mut self.$name, r, cx)?;
                    }
                )*
                Ok(())
            }
        }

        /// The devices' tables as a machine file writes them.
        #[derive(Default)]
        pub(crate) struct RawTables {
            $($name: Option<<<$ty as Device>::Config as DeviceConfig>::Raw>,)*
        }

        impl RawTables {
            /// Reads the table of device `name` as the next value of `map`.
            pub(crate) fn read<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                name: &str,
                map: &mut A,
            ) -> Result<(), A::Error> {
                $(
                    if name == stringify!($name) {
                        self.$name = map.next_value()?;
                        return Ok(());
                    }
                )*
                Ok(())
            }
        }
    };
}
