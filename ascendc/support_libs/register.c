/* libregister: this library exists only so that link lines naming it (CANN
 * samples, the AscendC cmake flow) resolve; simnpu needs nothing from it. */
void simnpu_support_register_placeholder(void);
void simnpu_support_register_placeholder(void) {}
