//! The board support package an image is built with: the code every board shares (`bsp/`:
//! `crt0.S`, `include/`, `src/`) and one board's own directory (`bsp/BOARD/`: `include/`,
//! optionally `src/`), chosen here as `bsp/bsp.mk` chooses it with `BSP_BOARD`.
//!
//! The board's `include/bsp/board.h` and `include/bsp/board_reset.h` give the shared code what
//! differs between boards (interrupts, the timer's compare, the counters, the console and halt,
//! what reset does before `main`), so the shared sources hold no board `#ifdef`.

use super::list;
use std::path::{Path, PathBuf};

/// A board `ubik build` can build for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Board {
    /// The Ubik reference MCU, bare metal in M-mode (`bsp/reference/`): every machine image
    /// and the hypervisor itself.
    Reference,
    /// A partition of the hypervisor, in U-mode on its virtual CPU page (`bsp/guest/`).
    Guest,
}

impl Board {
    /// The board's directory under `bsp/`.
    pub fn dir_name(self) -> &'static str {
        match self {
            Board::Reference => "reference",
            Board::Guest => "guest",
        }
    }

    /// The include directories, the board's first (it may add headers of its own), then the
    /// shared ones.
    pub fn include_dirs(self, root: &Path) -> Vec<PathBuf> {
        let bsp = root.join("bsp");
        vec![
            bsp.join(self.dir_name()).join("include"),
            bsp.join("include"),
        ]
    }

    /// The C sources, shared and the board's, in file-name order wherever they live: the
    /// link order (and so every address) then does not depend on which directory a file is in,
    /// and moving a file between the shared code and a board changes no image.
    pub fn c_sources(self, root: &Path) -> Vec<PathBuf> {
        let bsp = root.join("bsp");
        let mut v = list(&bsp.join("src"), &[".c"]);
        v.extend(list(&bsp.join(self.dir_name()).join("src"), &[".c"]));
        v.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        v
    }
}
