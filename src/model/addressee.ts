// Whom a question is for besides its caller (docs/approvals.md): the shapes elicit(), a tool and the unanswered policy
// take. Checked where questions are (inbox/addressees.ts).

/**
 * One addressee of a question: a person by the provider's `sub` or (verified) email, or everyone in a group or role
 * the provider lists in the sign-in's groups claim (`http.auth.oidc.groupsClaim`).
 */
export type Addressee = { subject: string } | { email: string } | { group: string };

/** Whom a tool (or the unanswered policy) addresses its questions to: `to`, `quorum` and `declines` as elicit() takes them. */
export interface AddressingOptions {
  to?: Addressee[];
  quorum?: number;
  declines?: number;
}
