//! `--trace FILE.perfetto-trace`: Perfetto's native protobuf trace format, the subset this
//! testbed writes, as `prost` messages written here from the field numbers Perfetto
//! publishes (`protos/perfetto/trace/`): a `Trace` is a sequence of `TracePacket`s (field 1),
//! each a track's descriptor or one track event. The trace-event JSON the timeline makes is
//! turned into packets as it streams: a slice (`X`) into a begin and an end, an instant
//! (`i`) into an instant on its thread's track (process-wide ones on the `interrupts`
//! track), a counter (`C`) into a value on a counter track of its own. A track is described
//! the first time it is used, with the timeline's name for it.

use prost::Message;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;

#[derive(Clone, PartialEq, prost::Message)]
pub struct Trace {
    #[prost(message, repeated, tag = "1")]
    pub packet: Vec<TracePacket>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TracePacket {
    /// Nanoseconds of simulated time.
    #[prost(uint64, optional, tag = "8")]
    pub timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "10")]
    pub trusted_packet_sequence_id: Option<u32>,
    #[prost(message, optional, tag = "11")]
    pub track_event: Option<TrackEvent>,
    #[prost(message, optional, tag = "60")]
    pub track_descriptor: Option<TrackDescriptor>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackDescriptor {
    #[prost(uint64, optional, tag = "1")]
    pub uuid: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    #[prost(message, optional, tag = "8")]
    pub counter: Option<CounterDescriptor>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct CounterDescriptor {}

/// `TrackEvent.Type`.
pub const SLICE_BEGIN: i32 = 1;
pub const SLICE_END: i32 = 2;
pub const INSTANT: i32 = 3;
pub const COUNTER: i32 = 4;

#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackEvent {
    #[prost(message, repeated, tag = "4")]
    pub debug_annotations: Vec<DebugAnnotation>,
    #[prost(int32, optional, tag = "9")]
    pub r#type: Option<i32>,
    #[prost(uint64, optional, tag = "11")]
    pub track_uuid: Option<u64>,
    #[prost(string, repeated, tag = "22")]
    pub categories: Vec<String>,
    #[prost(string, optional, tag = "23")]
    pub name: Option<String>,
    #[prost(double, optional, tag = "44")]
    pub double_counter_value: Option<f64>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct DebugAnnotation {
    #[prost(int64, optional, tag = "4")]
    pub int_value: Option<i64>,
    #[prost(double, optional, tag = "5")]
    pub double_value: Option<f64>,
    #[prost(string, optional, tag = "6")]
    pub string_value: Option<String>,
    #[prost(string, optional, tag = "10")]
    pub name: Option<String>,
}

const SEQ: u32 = 1;
/// Counter tracks' uuids start here (thread tracks are their tid).
const COUNTER_UUID: u64 = 1 << 32;

/// The packets written so far: which tracks are described.
#[derive(Default)]
pub struct Writer {
    described: HashMap<u64, ()>,
    counters: HashMap<String, u64>,
}

fn annotations(args: &Value) -> Vec<DebugAnnotation> {
    let Some(m) = args.as_object() else {
        return vec![];
    };
    m.iter()
        .map(|(k, v)| DebugAnnotation {
            name: Some(k.clone()),
            int_value: v.as_i64(),
            double_value: v.as_f64().filter(|_| !v.is_i64()),
            string_value: v
                .as_str()
                .map(str::to_string)
                .or_else(|| (!v.is_number() && !v.is_string()).then(|| v.to_string())),
        })
        .collect()
}

impl Writer {
    fn packet(w: &mut impl Write, p: &TracePacket) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(p.encoded_len() + 8);
        buf.push(0x0a); // Trace.packet: field 1, length-delimited
        p.encode_length_delimited(&mut buf)
            .map_err(std::io::Error::other)?;
        w.write_all(&buf)
    }

    fn describe(
        &mut self,
        w: &mut impl Write,
        uuid: u64,
        name: String,
        counter: bool,
    ) -> std::io::Result<()> {
        if self.described.insert(uuid, ()).is_some() {
            return Ok(());
        }
        Self::packet(
            w,
            &TracePacket {
                trusted_packet_sequence_id: Some(SEQ),
                track_descriptor: Some(TrackDescriptor {
                    uuid: Some(uuid),
                    name: Some(name),
                    counter: counter.then_some(CounterDescriptor {}),
                }),
                ..Default::default()
            },
        )
    }

    /// Writes the packets of trace-event `e`; `track_name(tid)` names a thread's track.
    pub fn event(
        &mut self,
        w: &mut impl Write,
        e: &Value,
        track_name: impl Fn(u64) -> String,
    ) -> std::io::Result<()> {
        let ph = e["ph"].as_str().unwrap_or("");
        let name = e["name"].as_str().unwrap_or("").to_string();
        let ns = |us: f64| (us * 1000.0).round().max(0.0) as u64;
        let ts = ns(e["ts"].as_f64().unwrap_or(0.0));
        let tid = e["tid"].as_u64().unwrap_or(2);
        let cats: Vec<String> = e["cat"]
            .as_str()
            .map(|c| vec![c.to_string()])
            .unwrap_or_default();
        let mut ev = TrackEvent {
            track_uuid: Some(tid),
            name: Some(name.clone()),
            categories: cats,
            debug_annotations: annotations(&e["args"]),
            ..Default::default()
        };
        let mut out = vec![];
        match ph {
            "X" => {
                ev.r#type = Some(SLICE_BEGIN);
                let end = ts + ns(e["dur"].as_f64().unwrap_or(0.0));
                out.push((ts, ev));
                let end_ev = TrackEvent {
                    r#type: Some(SLICE_END),
                    track_uuid: Some(tid),
                    ..Default::default()
                };
                out.push((end, end_ev));
            }
            "i" => {
                ev.r#type = Some(INSTANT);
                out.push((ts, ev));
            }
            "C" => {
                let n = self.counters.len() as u64;
                let uuid = *self
                    .counters
                    .entry(name.clone())
                    .or_insert(COUNTER_UUID + n);
                self.describe(w, uuid, name, true)?;
                let value = e["args"]
                    .as_object()
                    .and_then(|m| m.values().next())
                    .and_then(Value::as_f64);
                out.push((
                    ts,
                    TrackEvent {
                        r#type: Some(COUNTER),
                        track_uuid: Some(uuid),
                        double_counter_value: value,
                        ..Default::default()
                    },
                ));
            }
            _ => return Ok(()), // metadata: tracks are described at first use
        }
        if ph != "C" {
            self.describe(w, tid, track_name(tid), false)?;
        }
        for (t, ev) in out {
            Self::packet(
                w,
                &TracePacket {
                    timestamp: Some(t),
                    trusted_packet_sequence_id: Some(SEQ),
                    track_event: Some(ev),
                    ..Default::default()
                },
            )?;
        }
        Ok(())
    }
}

/// Reads a protobuf trace back (for tests and tools).
pub fn decode(bytes: &[u8]) -> Result<Trace, prost::DecodeError> {
    Trace::decode(bytes)
}
