/* libacl_rt.so has its code in the layer archives; this file is intentionally empty. */
