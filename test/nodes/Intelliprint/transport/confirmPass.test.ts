import { describe, expect, it } from 'vitest';

import { encodeMultipart, flattenFormFields } from '../../../../nodes/Intelliprint/transport';
import { confirmsField, issueConfirmPass, takeConfirmPass } from '../../../../nodes/Intelliprint/transport/confirmPass';

describe('the door every confirm goes through', () => {
	it('the transport knows a confirming body, in JSON and in multipart, whatever form true takes', () => {
		for (const value of [true, 'true', 1, '1']) expect(confirmsField('confirmed', value)).toBe(true);
		for (const value of [false, 'false', 0, undefined, '']) expect(confirmsField('confirmed', value)).toBe(false);
		expect(encodeMultipart(flattenFormFields({ reference: 'r', confirmed: true })).confirms).toBe(true);
		expect(encodeMultipart(flattenFormFields({ reference: 'r', confirmed: false })).confirms).toBe(false);
		expect(encodeMultipart(flattenFormFields({ metadata: { confirmed: 'true' } })).confirms).toBe(false);
	});

	it('a pass is good for one request, and only a pass the gate issued counts', () => {
		const pass = issueConfirmPass('test');
		expect(takeConfirmPass(pass)).toBe(true);
		expect(takeConfirmPass(pass)).toBe(false);
		expect(takeConfirmPass({ allowed: 'forged' })).toBe(false);
		expect(takeConfirmPass(undefined)).toBe(false);
	});

});
