import type { IDataObject, IExecuteFunctions, ResourceMapperValue } from 'n8n-workflow';

import { itemReader } from '../values';
import { usedAsTool } from '../agent';

/** The recipient fields the resource mapper offers, by the names the API gives them. */
export const RECIPIENT_FIELDS = [
	{ id: 'name', displayName: 'Name', required: true },
	{ id: 'address', displayName: 'Address Lines', required: true },
	{ id: 'postcode', displayName: 'Postcode', required: true },
	{ id: 'country', displayName: 'Country (Two-Letter Code)', required: false },
] as const;

export type RecipientFieldId = (typeof RECIPIENT_FIELDS)[number]['id'];

/** One item's recipient values, before they are checked. */
export type RawRecipient = Record<RecipientFieldId, unknown>;

/** How the values are found, for the message when they are not. */
export interface RecipientMapping {
	read: (itemIndex: number) => RawRecipient;
	/** What to change when an item lacks a value. */
	hint: string;
}

// Column names a spreadsheet or CRM export uses, lower case without spaces or punctuation.
const ROLES = new Map<string, string>([
	...['name', 'fullname', 'recipientname', 'recipient', 'addressee', 'contactname'].map((k) => [k, 'name'] as [string, string]),
	...['address', 'addresslines', 'streetaddress', 'street'].map((k) => [k, 'address'] as [string, string]),
	...['town', 'city', 'posttown', 'locality'].map((k) => [k, 'town'] as [string, string]),
	...['county', 'region', 'state', 'province'].map((k) => [k, 'county'] as [string, string]),
	...['postcode', 'postalcode', 'zip', 'zipcode'].map((k) => [k, 'postcode'] as [string, string]),
	...['country', 'countrycode'].map((k) => [k, 'country'] as [string, string]),
]);
const NUMBERED_LINE = /^(?:address|addressline|line|street)(\d{1,2})$/;

/** The part of an address a column holds, by its name: "Address Line 2" → line 2, "Post Code" → postcode. */
function roleOf(key: string): { role: string; line?: number } | undefined {
	const plain = key.toLowerCase().replace(/[^a-z0-9]/g, '');
	const role = ROLES.get(plain);
	if (role) return { role };
	const numbered = NUMBERED_LINE.exec(plain);
	return numbered ? { role: 'line', line: Number(numbered[1]) } : undefined;
}

/**
 * "Map Automatically": each item's own field names say what they hold (name, address or
 * address_line_1…, town, county, postcode, country, in any case and spacing). Town and county
 * become the last address lines. Field names repeat from row to row, so each is looked at once.
 */
function automatic(ctx: IExecuteFunctions): RecipientMapping['read'] {
	const items = ctx.getInputData();
	const roles = new Map<string, ReturnType<typeof roleOf>>();
	return (itemIndex) => {
		const json = (items[itemIndex]?.json ?? {}) as IDataObject;
		const found: Record<string, unknown> = {};
		const lines: Array<[number, unknown]> = [];
		for (const key of Object.keys(json)) {
			if (!roles.has(key)) roles.set(key, roleOf(key));
			const role = roles.get(key);
			if (!role) continue;
			if (role.line !== undefined) lines.push([role.line, json[key]]);
			else if (found[role.role] === undefined) found[role.role] = json[key];
		}
		lines.sort((a, b) => a[0] - b[0]);
		// The first line is the address column or line 1. A row without it (some sources leave empty
		// fields out) has a blank first line, not one made of its next line or its town.
		const first = found.address !== undefined ? found.address : (lines[0]?.[0] ?? 2) <= 1 ? lines.shift()![1] : '';
		const address = [first, ...lines.map(([, line]) => line), found.town, found.county].flat().filter((line) => line !== undefined);
		return { name: found.name, address, postcode: found.postcode, country: found.country };
	};
}

/** "Map Each Column Manually" in the resource mapper, or the four fields of version 1 and of the AI tool. */
function byField(ctx: IExecuteFunctions, path: (id: RecipientFieldId) => string): RecipientMapping['read'] {
	const readers = RECIPIENT_FIELDS.map((field) => [field.id, itemReader(ctx, path(field.id), '')] as const);
	return (itemIndex) => Object.fromEntries(readers.map(([id, read]) => [id, read(itemIndex)])) as RawRecipient;
}

const V1_PARAMETERS: Record<RecipientFieldId, string> = {
	name: 'recipientName',
	address: 'recipientAddress',
	postcode: 'recipientPostcode',
	country: 'recipientCountry',
};

const mappings = new WeakMap<IExecuteFunctions, RecipientMapping>();

/** How this run finds each item's recipient: worked out once per run, then read item by item. */
export function recipientMapping(ctx: IExecuteFunctions): RecipientMapping {
	let mapping = mappings.get(ctx);
	if (mapping) return mapping;
	if (ctx.getNode().typeVersion < 1.1 || usedAsTool(ctx)) {
		mapping = {
			read: byField(ctx, (id) => V1_PARAMETERS[id]),
			hint: 'Map "Recipient Name", "Address Lines" and "Postcode" to the item\'s fields',
		};
	} else {
		const chosen = ctx.getNodeParameter('recipientFields', 0, {}, { rawExpressions: true }) as Partial<ResourceMapperValue>;
		mapping =
			chosen.mappingMode === 'defineBelow'
				? {
						read: byField(ctx, (id) => `recipientFields.value.${id}`),
						hint: 'Under "Values to Send", map Name, Address Lines and Postcode to the item\'s fields',
					}
				: {
						read: automatic(ctx),
						hint: 'Name the item\'s fields name, address (or address_line_1, address_line_2, town) and postcode, or set "Mapping Column Mode" (under Recipients) to "Map Each Column Manually"',
					};
	}
	mappings.set(ctx, mapping);
	return mapping;
}
