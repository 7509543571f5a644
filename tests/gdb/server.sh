# Sourced by tests/gdb/*.sh. gdb_port ERRFILE: the port a `ubik run --gdb 0` started in the
# background says it listens on, read from its stderr file (waits up to 10 s); prints
# nothing if it never says.
gdb_port() {
    local port
    for _ in $(seq 100); do
        port=$(sed -n 's/.*waiting for GDB on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$1")
        [[ -n $port ]] && break
        sleep 0.1
    done
    echo "$port"
}
