/*
 * simnpu public header: placeholder for the single-operator API (aclop*).
 *
 * simnpu implements the runtime only. In a CANN runtime-only install this
 * file exists but is empty; the model/op package replaces it. It is kept so
 * that acl/acl.h (which includes it) compiles.
 */
