/* libacl_rt_impl: this library exists only so that link lines naming it (CANN
 * samples, the AscendC cmake flow) resolve; simnpu needs nothing from it. */
void simnpu_support_acl_rt_impl_placeholder(void);
void simnpu_support_acl_rt_impl_placeholder(void) {}
