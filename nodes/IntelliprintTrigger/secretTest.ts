import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

/**
 * Intelliprint has no endpoint to check a webhook signing secret against, so the credential test
 * checks what can be checked here: the whsec_ form and a key long enough to sign with.
 */
export async function intelliprintWebhookSecretTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = String(credential.data?.signingSecret ?? '').trim();
	if (!secret.startsWith('whsec_')) {
		return { status: 'Error', message: 'A signing secret starts with "whsec_". Copy it again from the endpoint in the Intelliprint dashboard.' };
	}
	const key = secret.slice('whsec_'.length);
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length < 16) {
		return { status: 'Error', message: 'The part after "whsec_" is not a valid key. Copy the whole secret again.' };
	}
	return { status: 'OK', message: 'The secret has the right form. Send a test event from the Intelliprint dashboard to check it matches.' };
}
