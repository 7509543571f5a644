/* Spins forever: only --max-cycles stops it (exit 72). */
int main(void)
{
    for (;;) {
        __asm__ volatile("");
    }
}
