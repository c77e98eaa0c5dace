import type { Fields } from './body';
import { fail, newestFirst, newId, nextSequence } from './http';
import { passesValidation, readRecipient, readRecipients, updateRecipient, windowLines, type Address, type Recipient, type RecipientInput } from './recipients';
import { MAILING_LIST_CREATE, MAILING_LIST_UPDATE, RECIPIENT, validate } from './schema';

export type ValidationStatus = 'passed' | 'failed' | 'pending' | 'not_requested';

/** A stored recipient, in the API's shape. The `mlr_` prefix is ours: the real one is not public. */
export interface FakeMailingListRecipient {
	id: string;
	object: 'mailing_list_recipient';
	mailing_list: string;
	account: string;
	address: Address;
	variables: Record<string, string>;
	address_validation_status: ValidationStatus;
	created: number;
	_seq: number;
}

/** A mailing list as the API shows it: counts and names worked out from its recipients at each answer. */
export interface FakeMailingList {
	id: string;
	object: 'mailing_list';
	account: string;
	name: string;
	recipients: number;
	variables: string[];
	/** Characters in the longest printed address line of any recipient (ours: the API's unit is not public). */
	longest_address_line: number;
	address_validation: { requested: boolean; completed: boolean; recipients: { passed: number; failed: number } };
	created: number;
	_seq: number;
}

interface StoredList {
	id: string;
	name: string;
	requested: boolean;
	created: number;
	_seq: number;
	recipients: Map<string, FakeMailingListRecipient>;
}

interface ListInput {
	name?: string;
	recipients?: RecipientInput[];
	address_validation?: { requested?: boolean };
	delete_old_recipients?: boolean;
}

const now = () => Math.floor(Date.now() / 1000);

/** Mailing lists and their recipients, with address validation that a test (or a timer) completes. */
export class MailingListStore {
	readonly lists = new Map<string, StoredList>();

	/** `onPending(id)`: the list has recipients waiting for validation (the fake schedules or leaves it to tests). */
	constructor(private readonly onPending: (listId: string) => void = () => undefined) {}

	/** `id`: the sandbox's lists keep fixed IDs that its examples name. */
	create(fields: Fields, id = newId('mal')): FakeMailingList {
		const input = validate(fields, MAILING_LIST_CREATE) as ListInput;
		if (!input.name?.trim()) throw fail.invalid('parameter_missing', 'Missing required param: name.', 'name');
		const recipients = readRecipients(input.recipients ?? []);
		const list: StoredList = { id, name: input.name, requested: input.address_validation?.requested === true, created: now(), _seq: nextSequence(), recipients: new Map() };
		this.lists.set(list.id, list);
		for (const recipient of recipients) this.store(list, recipient);
		this.settle(list);
		return this.view(list);
	}

	get(id: string): FakeMailingList {
		return this.view(this.find(id));
	}

	/** `recipients` are added; with `delete_old_recipients` they replace the old ones. Validation, once requested, stays. */
	update(id: string, fields: Fields): FakeMailingList {
		const list = this.find(id);
		const input = validate(fields, MAILING_LIST_UPDATE) as ListInput;
		if (input.name !== undefined && !input.name.trim()) throw fail.invalid('parameter_invalid', 'Invalid value for name: it is empty.', 'name');
		const recipients = readRecipients(input.recipients ?? []);
		if (input.name !== undefined) list.name = input.name;
		if (input.address_validation?.requested === true && !list.requested) {
			list.requested = true;
			for (const recipient of list.recipients.values()) recipient.address_validation_status = 'pending';
		}
		if (input.delete_old_recipients === true) list.recipients.clear();
		for (const recipient of recipients) this.store(list, recipient);
		this.settle(list);
		return this.view(list);
	}

	/** Deletes the list and its recipients. */
	remove(id: string): Record<string, unknown> {
		this.find(id);
		this.lists.delete(id);
		return { id, object: 'mailing_list', deleted: true };
	}

	list(): FakeMailingList[] {
		return [...this.lists.values()].map((list) => this.view(list)).sort(newestFirst);
	}

	addRecipient(listId: string, fields: Fields): FakeMailingListRecipient {
		const list = this.find(listId);
		const recipient = this.store(list, readRecipient(validate(fields, RECIPIENT) as RecipientInput));
		this.settle(list);
		return recipient;
	}

	getRecipient(listId: string, id: string): FakeMailingListRecipient {
		const recipient = this.find(listId).recipients.get(id);
		if (!recipient) throw fail.notFound(`mailing_list_recipient ${id}`);
		return recipient;
	}

	/** A partial update: fields not sent are kept; a changed address is validated again when the list asks for it. */
	updateRecipient(listId: string, id: string, fields: Fields): FakeMailingListRecipient {
		const recipient = this.getRecipient(listId, id);
		const updated = updateRecipient(recipient, validate(fields, RECIPIENT) as RecipientInput);
		const moved = JSON.stringify(updated.address) !== JSON.stringify(recipient.address);
		Object.assign(recipient, updated);
		const list = this.find(listId);
		if (moved && list.requested) recipient.address_validation_status = 'pending';
		this.settle(list);
		return recipient;
	}

	removeRecipient(listId: string, id: string): Record<string, unknown> {
		this.getRecipient(listId, id);
		this.find(listId).recipients.delete(id);
		return { id, object: 'mailing_list_recipient', deleted: true };
	}

	recipients(listId: string): FakeMailingListRecipient[] {
		return [...this.find(listId).recipients.values()].sort(newestFirst);
	}

	/** The recipients print jobs take from a list, in the order they were added; undefined for no such list. */
	recipientsFor(listId: string): Recipient[] | undefined {
		const list = this.lists.get(listId);
		return list && [...list.recipients.values()].map(({ address, variables }) => ({ address, variables }));
	}

	/**
	 * Finishes validation: each pending recipient passes or fails by the fake's rule (recipients.ts). Returns the
	 * list when anything was pending (the moment the API sends `mailing_list.addresses_validated`), else undefined.
	 */
	completeValidation(id: string): FakeMailingList | undefined {
		const list = this.find(id);
		const pending = [...list.recipients.values()].filter((recipient) => recipient.address_validation_status === 'pending');
		if (pending.length === 0) return undefined;
		for (const recipient of pending) recipient.address_validation_status = passesValidation(recipient.address) ? 'passed' : 'failed';
		return this.view(list);
	}

	private find(id: string): StoredList {
		const list = this.lists.get(id);
		if (!list) throw fail.notFound(`mailing_list ${id}`);
		return list;
	}

	private store(list: StoredList, recipient: Recipient): FakeMailingListRecipient {
		const stored: FakeMailingListRecipient = {
			id: newId('mlr'), object: 'mailing_list_recipient', mailing_list: list.id, account: 'acc_fake', ...recipient,
			address_validation_status: list.requested ? 'pending' : 'not_requested', created: now(), _seq: nextSequence(),
		};
		list.recipients.set(stored.id, stored);
		return stored;
	}

	private settle(list: StoredList): void {
		if ([...list.recipients.values()].some((recipient) => recipient.address_validation_status === 'pending')) this.onPending(list.id);
	}

	private view(list: StoredList): FakeMailingList {
		const recipients = [...list.recipients.values()];
		const count = (status: ValidationStatus) => recipients.filter((recipient) => recipient.address_validation_status === status).length;
		const lines = recipients.flatMap((recipient) => windowLines(recipient.address));
		return {
			id: list.id, object: 'mailing_list', account: 'acc_fake', name: list.name, recipients: recipients.length,
			variables: [...new Set(recipients.flatMap((recipient) => Object.keys(recipient.variables)))].sort(),
			longest_address_line: lines.reduce((longest, line) => Math.max(longest, line.length), 0),
			address_validation: { requested: list.requested, completed: list.requested && count('pending') === 0, recipients: { passed: count('passed'), failed: count('failed') } },
			created: list.created, _seq: list._seq,
		};
	}
}
