// Plays a vector file (sim/crates/machine/examples/rtm_vectors.rs) to hw/rtm/rtm.v and checks
// every read and every refusal against the testbed model's answers. Prints "PASS n" or the
// first mismatch and "FAIL". Parameters: RECORDS, QUERY_CYCLES; plusarg +vectors=FILE.
`timescale 1ns / 1ps
module rtm_tb;
    parameter RECORDS = 64;
    parameter QUERY_CYCLES = 2;
    reg clk = 0, rst_n = 0, req = 0, we = 0;
    reg [11:2] addr = 0;
    reg [31:0] wdata = 0;
    reg [3:0] be = 0;
    wire [31:0] rdata;
    wire err;

    rtm #(.RECORDS(RECORDS), .DEADLINES(1), .QUERY_CYCLES(QUERY_CYCLES)) dut (
        .clk(clk), .rst_n(rst_n), .req(req), .we(we), .addr(addr), .wdata(wdata),
        .be(be), .rdata(rdata), .err(err));

    integer fd, got, n, line;
    reg [31:0] v_we, v_off, v_data, v_be, v_err;
    reg [8*256-1:0] path;
    initial begin
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("FAIL: no +vectors=FILE");
            $finish;
        end
        fd = $fopen(path, "r");
        if (fd == 0) begin
            $display("FAIL: cannot open the vectors");
            $finish;
        end
        #5 rst_n = 1;
        n = 0;
        line = 0;
        while (!$feof(fd)) begin
            got = $fscanf(fd, "%h %h %h %h %h\n", v_we, v_off, v_data, v_be, v_err);
            if (got == 5) begin
                line = line + 1;
                req = 1;
                we = v_we[0];
                addr = v_off[11:2];
                wdata = v_data;
                be = v_be[3:0];
                #1;
                if (err !== v_err[0] || (!v_we[0] && !v_err[0] && rdata !== v_data)) begin
                    $display("FAIL at vector %0d: %s offset 0x%03h: RTL %h err %b, model %h err %b",
                             line, v_we[0] ? "write" : "read", v_off, rdata, err, v_data, v_err[0]);
                    $finish;
                end
                #4 clk = 1;
                #5 clk = 0;
                req = 0;
                n = n + 1;
            end
        end
        $display("PASS %0d", n);
        $finish;
    end
endmodule
