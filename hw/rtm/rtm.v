`timescale 1ns / 1ps
// The Real-Time Task Manager (Kohout, Ganesh and Jacob, CODES+ISSS 2003) in synthesisable
// Verilog-2005: the same device as the testbed's model (sim/crates/machine/src/dev/rtm.rs,
// registers in docs/machine.md), checked against it on random access sequences by
// tests/rtm/check.sh, synthesised by hw/rtm/synth.sh.
//
// The bus port is a simple single-cycle slave: a write (req & we) takes effect at the clock
// edge; a read (req & ~we) is combinational, so a query is the depth of the comparator tree
// that rdata waits for (the testbed turns that depth into stall cycles). err flags an
// access the device refuses (a bus fault).
//
// One tree serves the three queries, as in the paper: the leaf test (ready, pending on event
// e, expired) is chosen by the address, and RECORDS - 1 priority-test cells pass up the
// qualifying record with the lowest priority value, the left (lower) index on a tie.
//
// With DEADLINES = 1 each record also holds a 16-bit deadline (the second word's upper half)
// and EARLIEST (+0x814) queries the ready record with the earliest deadline, compared as
// wrapping 16-bit tick counts relative to NOW (+0x818, advanced by TICK). The tree's keys
// then grow from 8 to 16 bits (a priority is the key's upper byte): hw/rtm/synth.sh measures
// what that costs.
module rtm #(
    parameter RECORDS = 64,   // 2 .. 256
    parameter DEADLINES = 0,
    parameter QUERY_CYCLES = 2 // what QUERY_CYCLES reads: the stall the clock rate gives
) (
    input  wire        clk,
    input  wire        rst_n,
    input  wire        req,
    input  wire        we,
    input  wire [11:2] addr,
    input  wire [31:0] wdata,
    input  wire [3:0]  be,
    output reg  [31:0] rdata,
    output reg         err
);
    localparam L = $clog2(RECORDS);      // levels of the tree, bits of an index
    localparam P = 1 << L;               // leaves (records padded to a power of two)
    localparam KW = DEADLINES ? 16 : 8;  // width of the tree's key

    localparam VALID = 0, DELAYED = 1, PENDING = 2, SUSPENDED = 3, EXPIRED = 4;

    // The records, flattened: field of record i at [i*W +: W].
    reg [RECORDS*5-1:0]  status;
    reg [RECORDS*8-1:0]  prio;
    reg [RECORDS*8-1:0]  event_id;
    reg [RECORDS*16-1:0] delay;
    reg [RECORDS*16-1:0] deadline;
    reg [15:0]           now;

    wire [11:0] off = {addr, 2'b00};
    wire        in_records = off < 12'h800;
    wire [7:0]  rec = off[10:3];
    wire        rec_ok = in_records && rec < RECORDS;
    wire        is_ready = off == 12'h804;
    wire        is_expired = off == 12'h808;
    wire        is_tick = off == 12'h80c;
    wire        is_earliest = DEADLINES && off == 12'h814;
    wire        is_event = off >= 12'hc00;
    wire [7:0]  ev = off[9:2];
    wire [31:0] lanes = {{8{be[3]}}, {8{be[2]}}, {8{be[1]}}, {8{be[0]}}};
    wire [31:0] tick_n = wdata & lanes;

    // ---- the tree ------------------------------------------------------------------------
    // Heap layout: node 1 is the root, node n's inputs are 2n and 2n + 1, leaves P .. 2P-1.
    wire [2*P-1:0]   ok;
    wire [2*P*KW-1:0] key;
    wire [2*P*L-1:0] idx;

    genvar i, n;
    generate
        for (i = 0; i < P; i = i + 1) begin : leaf
            if (i < RECORDS) begin : used
                wire [4:0] s = status[i*5 +: 5];
                wire ready = s[VALID] & ~s[DELAYED] & ~s[PENDING] & ~s[SUSPENDED];
                wire pend = s[VALID] & s[PENDING] & (event_id[i*8 +: 8] == ev);
                wire expd = s[VALID] & s[EXPIRED];
                assign ok[P + i] = is_event ? pend : is_expired ? expd : ready;
                if (DEADLINES) begin : d
                    // Earliest deadline: the key is the deadline's distance from now.
                    wire [15:0] ahead = deadline[i*16 +: 16] - now;
                    assign key[(P + i)*KW +: KW] = is_earliest ? ahead : {prio[i*8 +: 8], 8'h0};
                end else begin : p
                    assign key[(P + i)*KW +: KW] = prio[i*8 +: 8];
                end
            end else begin : pad
                assign ok[P + i] = 1'b0;
                assign key[(P + i)*KW +: KW] = {KW{1'b1}};
            end
            assign idx[(P + i)*L +: L] = i;
        end
        for (n = 1; n < P; n = n + 1) begin : priority_test
            wire lo = ok[2*n];
            wire hi = ok[2*n + 1];
            wire take_hi = hi & (~lo | (key[(2*n + 1)*KW +: KW] < key[2*n*KW +: KW]));
            assign ok[n] = lo | hi;
            assign key[n*KW +: KW] = take_hi ? key[(2*n + 1)*KW +: KW] : key[2*n*KW +: KW];
            assign idx[n*L +: L] = take_hi ? idx[(2*n + 1)*L +: L] : idx[2*n*L +: L];
        end
    endgenerate

    wire [31:0] answer = ok[1] ? {{(32 - L){1'b0}}, idx[L +: L]} : 32'hffff_ffff;

    // ---- reads ---------------------------------------------------------------------------
    always @(*) begin
        rdata = 32'h0;
        err = 1'b0;
        if (in_records) begin
            if (!rec_ok)
                err = 1'b1;
            else if (off[2] == 1'b0)
                rdata = {8'h0, event_id[rec*8 +: 8], prio[rec*8 +: 8], 3'b0, status[rec*5 +: 5]};
            else
                rdata = {DEADLINES ? deadline[rec*16 +: 16] : 16'h0, delay[rec*16 +: 16]};
        end else if (is_event || is_ready || is_expired || is_earliest)
            rdata = answer;
        else if (off == 12'h800)
            rdata = RECORDS;
        else if (is_tick)
            rdata = 32'h0;
        else if (off == 12'h810)
            rdata = QUERY_CYCLES;
        else if (DEADLINES && off == 12'h818)
            rdata = {16'h0, now};
        else
            err = 1'b1;
    end

    // ---- writes: each record's own registers, and the delay-decrement cells ------------
    wire wr = req && we;
    wire wr_tick = wr && is_tick;
    always @(posedge clk or negedge rst_n)
        if (!rst_n)
            now <= 0;
        else if (wr_tick)
            now <= now + tick_n[15:0];

    genvar k;
    generate
        for (k = 0; k < RECORDS; k = k + 1) begin : record
            wire sel = wr && in_records && rec == k;
            wire w0 = sel && !off[2];
            wire w1 = sel && off[2];
            wire [15:0] d = delay[k*16 +: 16];
            wire delayed = status[k*5 + VALID] && status[k*5 + DELAYED];
            wire expires = tick_n[31:16] != 0 || tick_n[15:0] >= d;
            always @(posedge clk or negedge rst_n) begin
                if (!rst_n) begin
                    status[k*5 +: 5] <= 0;
                    prio[k*8 +: 8] <= 0;
                    event_id[k*8 +: 8] <= 0;
                    delay[k*16 +: 16] <= 0;
                    deadline[k*16 +: 16] <= 0;
                end else if (wr_tick) begin
                    if (delayed) begin
                        if (expires) begin
                            delay[k*16 +: 16] <= 16'h0;
                            status[k*5 + DELAYED] <= 1'b0;
                            status[k*5 + EXPIRED] <= 1'b1;
                        end else
                            delay[k*16 +: 16] <= d - tick_n[15:0];
                    end
                end else begin
                    if (w0 && be[0]) status[k*5 +: 5] <= wdata[4:0];
                    if (w0 && be[1]) prio[k*8 +: 8] <= wdata[15:8];
                    if (w0 && be[2]) event_id[k*8 +: 8] <= wdata[23:16];
                    if (w1 && be[0]) delay[k*16 +: 8] <= wdata[7:0];
                    if (w1 && be[1]) delay[k*16 + 8 +: 8] <= wdata[15:8];
                    if (DEADLINES && w1 && be[2]) deadline[k*16 +: 8] <= wdata[23:16];
                    if (DEADLINES && w1 && be[3]) deadline[k*16 + 8 +: 8] <= wdata[31:24];
                end
            end
        end
    endgenerate
endmodule
