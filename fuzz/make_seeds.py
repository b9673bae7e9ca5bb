#!/usr/bin/python3
"""Writes the seed corpora of the fuzz harnesses (fuzz/corpus/<harness>/).
The seeds are committed; rerun this after changing it."""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(harness, name, data):
    d = os.path.join(HERE, "corpus", harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def elf(machine=62, etype=3, sections=True, marker=b"SIMNPU-KERNELS1\0"):
    """A small ELF64 with a section table: [null, .shstrtab, .simnpu_kernels]."""
    names = b"\0.shstrtab\0.simnpu_kernels\0"
    hdr_size, sh_size = 64, 64
    names_off = hdr_size
    marker_off = names_off + len(names)
    shoff = (marker_off + len(marker) + 7) & ~7
    shnum = 3 if sections else 0
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    eh = ident + struct.pack("<HHIQQQIHHHHHH", etype, machine, 1, 0, 0, shoff if sections else 0, 0, hdr_size,
                             0, 0, sh_size, shnum, 1 if sections else 0)
    body = eh + names + marker
    body += bytes(shoff - len(body))
    if sections:
        sh = bytes(64)
        sh += struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names_off, len(names), 0, 0, 1, 0)
        sh += struct.pack("<IIQQQQIIQQ", 11, 1, 2, 0, marker_off, len(marker), 0, 0, 16, 0)
        body += sh
    return body


def main():
    # binary loading
    put("fuzz_binary_load", "empty", b"")
    put("fuzz_binary_load", "garbage", bytes(range(256)))
    put("fuzz_binary_load", "elf_magic_only", b"\x7fELF")
    put("fuzz_binary_load", "elf_32bit", b"\x7fELF" + bytes([1, 1, 1]) + bytes(57))
    put("fuzz_binary_load", "elf_other_machine", elf(machine=183))
    put("fuzz_binary_load", "elf_relocatable", elf(etype=1))
    put("fuzz_binary_load", "elf_no_sections", elf(sections=False))
    put("fuzz_binary_load", "elf_bad_marker", elf(marker=b"NOT-THE-MARKER!\0"))
    put("fuzz_binary_load", "elf_with_marker", elf())
    put("fuzz_binary_load", "inproc_null_table", struct.pack("<IIQ", 0x49504E53, 1, 0))
    put("fuzz_binary_load", "inproc_wild_table", struct.pack("<IIQ", 0x49504E53, 1, 0x7F0000001000))
    put("fuzz_binary_load", "inproc_old_abi", struct.pack("<IIQ", 0x49504E53, 99, 0))
    # kernel arguments: op streams (see fuzz_kernel_args.cc)
    put("fuzz_kernel_args", "three_pointers", bytes([3, 8, 8, 0, 8, 8, 0, 8, 8, 0, 0, 8, 0, 8, 0, 8, 3, 4]))
    put("fuzz_kernel_args", "placeholder", bytes([2, 8, 8, 0, 16, 16, 3, 1, 0, 8, 2, 32, 3, 4]))
    put("fuzz_kernel_args", "huge_sizes", bytes([1, 8, 8, 0, 0, 0xFF, 7, 0, 0xFE, 2, 0xFF, 1, 1, 2, 0xFF, 3, 4]))
    put("fuzz_kernel_args", "blob", bytes([4, 8, 8, 0, 4, 4, 1, 16, 16, 3, 64, 64, 2, 5, 6, 2, 0, 0, 0, 8, 0, 0, 0, 16]))
    put("fuzz_kernel_args", "many_appends", bytes([1, 8, 8, 0]) + bytes([0, 8]) * 140 + bytes([3, 4]))
    # aclInit configuration
    for name, text in [
        ("empty", b""), ("blank", b"  \n\t "), ("object", b"{}"),
        ("dump", b'{"dump": {"dump_path": "./", "dump_scene": "aic_err_brief_dump"}}'),
        ("profiler", b'{"profiler": "on"}'), ("wrong_type", b'{"dump": 1}'), ("array", b"[1, 2, 3]"),
        ("string", b'"acl"'), ("broken", b'{"dump": {'), ("nested", b'{"a": [[[[[{"b": null}]]]]]}'),
        ("unicode", '{"err_msg_mode": "\u00e9\u4e2d"}'.encode()), ("numbers", b'{"defaultDevice": 1e400}'),
    ]:
        put("fuzz_init_config", name, text)
    # IPC keys and handles: op streams (see fuzz_ipc_keys.cc); op byte % 9
    put("fuzz_ipc_keys", "key_text", bytes([0, 24]) + b"snpm0000" + b"0123456789abcdef" + bytes([1]))
    put("fuzz_ipc_keys", "key_unterminated", bytes([0, 90]) + b"k" * 90 + bytes([2]))
    put("fuzz_ipc_keys", "near_miss_keys", bytes([1, 0, 2, 0, 5, 0x41, 1, 1, 1, 1, 7, 1, 2, 3, 30, 1, 0]))
    put("fuzz_ipc_keys", "handles", bytes([2, 0, 0, 2, 3, 1, 4]) + struct.pack(">Q", 1) + bytes([3]) +
        struct.pack("<Q", 3) + bytes(56))
    put("fuzz_ipc_keys", "event_handle", bytes([3]) + struct.pack("<Q", 3) + bytes(56))
    put("fuzz_ipc_keys", "whitelist", bytes([4, 0, 3]) + struct.pack(">Q", 1234) * 3 + bytes([4, 200, 0x7f, 0xff, 1]) +
        struct.pack(">Q", 5))
    put("fuzz_ipc_keys", "whitelist_full", bytes([4, 0, 79]) + b"".join(struct.pack(">Q", 100 + i) for i in range(79)))
    put("fuzz_ipc_keys", "add_remove", bytes([6, 0, 1]) + struct.pack(">Q", 9) + bytes([1, 6, 3, 0]) +
        struct.pack(">Q", 0) + bytes([0, 7]))
    put("fuzz_ipc_keys", "slot_numbers", bytes([8, 0xff, 0xff, 8, 0x08, 0x00, 8, 0x07, 0xff]))
    # a scratch slot's whitelist count set past its array, then a whitelist call
    # (found by this harness: the duplicate scan read past wl[64])
    put("fuzz_ipc_keys", "regress_whitelist_count", bytes([5, 0, 152, 4, 0xff, 0xff, 0xff, 0x7f, 4, 128, 1]) + bytes([1] * 8))
    put("fuzz_ipc_keys", "corrupt_slot", bytes([5, 1, 0, 200]) + bytes([1, 0, 0, 0]) + b"x" * 196 + bytes([0, 100]) +
        b"x" * 100 + bytes([2, 1, 1]) + bytes([7]))


if __name__ == "__main__":
    main()
