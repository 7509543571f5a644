//! What the papers Ubik reproduces report for each experiment, shown by `ubik report` beside
//! Ubik's own table and figures (the numbers are the papers', in their words' units; Ubik's
//! comparable rows are named). Keyed by the experiment file's name.

/// One row: what the paper reports, its value, and the measure of Ubik's to read against it.
pub type Row = (&'static str, &'static str, &'static str);

/// The paper and its rows for experiment `name` (None: no paper figure to set beside it).
pub fn reference(name: &str) -> Option<(&'static str, &'static [Row])> {
    let rows: &'static [Row] = match name {
        "simbed-fig1" | "simbed-fig1-cause" | "simbed-fig1-cause-offset" | "demo" | "smoke" => {
            SIMBED_FIG1
        }
        "simbed-fig2" => SIMBED_FIG2,
        "simbed-fig3" => SIMBED_FIG3,
        "dpm" => DPM,
        "rtm" => RTM,
        _ => return None,
    };
    let paper = match name {
        "dpm" => "UbiFOS (Table 2, Fig. 16)",
        "rtm" => "RTM (Kohout et al., Figs. 4-5)",
        _ => "SimBed (Figs. 1-3)",
    };
    Some((paper, rows))
}

/// SimBed Fig. 1: the deviation from the period, by task count.
const SIMBED_FIG1: &[Row] = &[
    (
        "Echidna, 1 up-sampler task (8/4 ms): on time",
        "about 90 %",
        "ubik-coop up 8000 us 2:1, 1 task: on time",
    ),
    (
        "Echidna, 2 tasks: on time",
        "45 % (28 % early, 22 % late)",
        "ubik-coop, 2 tasks",
    ),
    (
        "Echidna, 4 tasks: on time",
        "0 % (half early, half late, up to 0.2 ms)",
        "ubik-coop, 4 tasks: |deviation| p99",
    ),
    (
        "Echidna, 8 tasks",
        "bimodal, peaks at +-0.2 ms",
        "ubik-coop, 8 tasks: |deviation| p50",
    ),
    (
        "uC/OS-II, 8/4 ms periods: on time",
        "at most 50 %",
        "ubik-prio up 8000 us 2:1: on time",
    ),
    (
        "NOS: deviations",
        "small; a late job is followed by on-time ones",
        "nos rows: p50, max",
    ),
];

/// SimBed Fig. 2.
const SIMBED_FIG2: &[Row] = &[
    (
        "Echidna: response time",
        "spread evenly over 1 ms (its 1 ms polling task); several ms at heavy load",
        "ubik-coop delay p50 / p99",
    ),
    (
        "NOS: response time",
        "fastest at light load; geometric tail with the jobs' length as load grows",
        "nos delay rows",
    ),
    (
        "uC/OS-II: response time",
        "narrow band; grows with the task count (TCB list scan)",
        "ubik-prio delay rows (flat: O(1) selection)",
    ),
];

/// SimBed Fig. 3.
const SIMBED_FIG3: &[Row] = &[
    (
        "NOS: energy over the bare application",
        "less than 2x",
        "nos rows: OS energy against user",
    ),
    (
        "Echidna, uC/OS-II: energy over the bare application",
        "less than 3x",
        "ubik-coop, ubik-prio rows",
    ),
    (
        "Kernel energy against the task count",
        "NOS grows with the workload; the RTOSs start higher and stay flatter",
        "the OS-energy pivot: growth per added task",
    ),
    (
        "Same work (2000 jobs/s): 8 tasks / 8 ms vs 1 task / 1 ms",
        "more tasks cost more kernel energy",
        "energy-fir-p8000 8 tasks vs energy-fir-p1000 1 task",
    ),
];

/// UbiFOS Table 2 and Fig. 16: current and savings by power policy.
const DPM: &[Row] = &[
    (
        "WAV player, default (s3c2440, frequency only)",
        "0.239 A",
        "audio freq default: avg_current_ma",
    ),
    (
        "WAV player, LS399 / LS266",
        "0.198 A",
        "audio freq ls0 / ls1",
    ),
    (
        "WAV player, LS96",
        "0.194 A (-19 %)",
        "audio freq ls2: saving_vs_default_pct",
    ),
    (
        "PushPush (display on), default",
        "0.348 A",
        "game freq default",
    ),
    (
        "PushPush, LS96",
        "0.244 A (-30 %)",
        "game freq ls2: saving_vs_default_pct",
    ),
    (
        "Fig. 16: current over time",
        "lower and steadier at lower levels",
        "current-time-*.svg",
    ),
];

/// The RTM paper (Kohout et al.), Figs. 4-5.
const RTM: &[Row] = &[
    (
        "uC/OS-II + RTM: RTOS processor utilisation",
        "-60 % to -90 %",
        "ubik-rtm vs ubik-bitmap: OS utilisation (utilisation-*.svg)",
    ),
    (
        "uC/OS-II + RTM: scheduling / clock ticks (time management) / event management",
        "-31 % / -83 % / -14 % (Table 3)",
        "kernel_sched / kernel_time / kernel_ipc, rtm vs bitmap",
    ),
    (
        "NOS + RTM: scheduling / clock ticks and release times / polling",
        "-98 % / -85 % and -95 % / +25 % (Table 3)",
        "nos-rtm vs nos: kernel_sched / kernel_time / kernel_other",
    ),
    (
        "NOS + RTM: RTOS processor utilisation",
        "-20 % to -65 %",
        "nos-rtm vs nos: OS utilisation",
    ),
    (
        "uC/OS-II: interrupt response",
        "1.8 us typical (1.4 us with the RTM); worst up to 11.8 us, -83 % with the RTM",
        "ubik delay p50 / max (delay-*.svg)",
    ),
    (
        "NOS: interrupt response",
        "uniform up to the jobs' length; the RTM changes it little",
        "nos, nos-rtm delay rows",
    ),
    (
        "RTM hardware, 64 records",
        "2,304 flip-flops, about 2,600 register-bit equivalents",
        "out/bench/rtm.json: flip_flops, cells",
    ),
];
