/* libascend_dump: this library exists only so that link lines naming it (CANN
 * samples, the AscendC cmake flow) resolve; simnpu needs nothing from it. */
void simnpu_support_ascend_dump_placeholder(void);
void simnpu_support_ascend_dump_placeholder(void) {}
