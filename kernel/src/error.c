/* uk_strerror: the text of a UK_E* code, for messages. */
#include "kernel.h"

/* Indexed by -code: the codes are 0 and -1..-8, fixed by docs/contract.md. Each text starts
 * with the code's name, so a message can be searched for, then says what it means. */
static const char *const error_texts[] = {
    "UK_OK: done",
    "UK_ETIMEOUT: the wait timed out",
    "UK_EAGAIN: not available, and the call was not to wait (UK_NO_WAIT)",
    "UK_EINVAL: a bad argument (NULL, out of range, an invalid or deleted object)",
    "UK_EPERM: not allowed here (an interrupt handler, not the owner, before uk_start)",
    "UK_ENOMEM: a fixed resource is full",
    "UK_EDELETED: the object was deleted while the caller waited",
    "UK_ESTATE: the object or task is in the wrong state for this call",
    "UK_EINTR: a signal ended the wait or sleep",
};

UK_OTHER_FN(uk_strerror) const char *uk_strerror(int code)
{
    unsigned i = (unsigned)-code; /* codes above 0 wrap to huge indices: unknown */
    if (i < sizeof error_texts / sizeof error_texts[0])
        return error_texts[i];
    return "unknown error code (not a UK_E* value)";
}
