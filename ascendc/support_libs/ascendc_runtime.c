/* libascendc_runtime.a: this archive exists only so that link lines naming it (CANN
 * samples, the AscendC cmake flow) resolve; simnpu needs nothing from it. */
void simnpu_support_ascendc_runtime_placeholder(void);
void simnpu_support_ascendc_runtime_placeholder(void) {}
