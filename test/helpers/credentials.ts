import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

/**
 * The credentials side of n8n for tests: hands out decrypted credential data and applies a
 * credential type's `authenticate` the way n8n's own CredentialsHelper does (generic auth resolved
 * with n8n's expression engine). Everything else in a run is n8n-core's real code.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types[typeName];
		const options = requestOptions as IHttpRequestOptions;
		if (!type?.authenticate) return options;
		if (typeof type.authenticate === 'function') return await type.authenticate(credentials, options);
		const resolve = (value: string) =>
			workflow!.expression.resolveSimpleParameterValue(
				value, {}, null, 0, 0, node!.name, [], 'internal', { $credentials: credentials } as never,
			) as string;
		const { headers = {}, qs = {}, auth } = type.authenticate.properties;
		options.headers = { ...(options.headers ?? {}) };
		for (const [name, value] of Object.entries(headers)) options.headers[name] = resolve(String(value));
		if (Object.keys(qs).length) {
			options.qs = { ...(options.qs ?? {}) };
			for (const [name, value] of Object.entries(qs)) options.qs[name] = resolve(String(value));
		}
		if (auth) options.auth = { username: resolve(auth.username), password: resolve(auth.password) };
		return options;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used in tests');
	}

	async getDecrypted(_additionalData: unknown, _node: unknown, type: string): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}

export type { INode };
