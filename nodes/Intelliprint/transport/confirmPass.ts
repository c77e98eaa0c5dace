/**
 * The door every confirm goes through. A request whose body sets `confirmed` to true sends a job to
 * print and charges for it, so the transport sends one only with a pass, and passes are issued by the
 * spending gate alone (spending/spending.ts; a test checks that nothing else issues them). A pass is
 * good for one request: a path that forgets the gate fails loudly instead of confirming unchecked.
 */
const issued = new WeakSet<ConfirmPass>();

export interface ConfirmPass {
	/** What the gate allowed, for the message should the pass be misused. */
	readonly allowed: string;
}

export function issueConfirmPass(allowed: string): ConfirmPass {
	const pass = Object.freeze({ allowed });
	issued.add(pass);
	return pass;
}

/** Uses up the pass: true when it was issued by the gate and not used before. */
export function takeConfirmPass(pass: ConfirmPass | undefined): boolean {
	if (!pass || !issued.has(pass)) return false;
	issued.delete(pass);
	return true;
}

/** Whether a body's fields confirm: `confirmed` as true, in any form a form field or JSON can carry it. */
export function confirmsField(name: string, value: unknown): boolean {
	return name === 'confirmed' && (value === true || value === 'true' || value === 1 || value === '1');
}
