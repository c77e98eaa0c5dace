import type { AssumptionId } from '../../nodes/Intelliprint/transport/contract';

/**
 * The contract's rows in full (nodes/Intelliprint/transport/contract.ts holds their IDs and titles, all the node
 * itself needs): kept out of the package, rendered into docs/api-contract.md by `npm run docs:contract`, and read by
 * `npm run check:api` for what the node does when a row is broken. Every ID of the contract has a row here (the
 * type says so), and a test checks that every file named under "used by" names its assumption.
 */
export interface AssumptionDetails {
	/** Files (below nodes/Intelliprint) whose guarantees rest on it; each names the assumption's ID. */
	usedBy: string[];
	/** What a user would see if it did not hold and nothing checked it. */
	ifBroken: string;
	/** Where the node checks it, on the normal path at no extra request. */
	checked: string;
	/** What the node does when the check fails. */
	onBreach: string;
}

export const DETAILS: Record<AssumptionId, AssumptionDetails> = {
	'list-order': {
		usedBy: ['spending/dayRead.ts', 'reruns/sentKeyIndex.ts', 'actions/mailingListRecipient/create.operation.ts'],
		ifBroken:
			"The readers of today's confirms, of the quarter hour's claims and of the look-back stop at the first entry older than what they need: an API that ignores the sort (oldest first) let 20 of 20 letters be confirmed where 9 fitted the daily limit, and a rerun post 100 of 100 letters again. Mailing List Recipient → Add reads the newest recipients back to give each item its ID.",
		checked: 'Every list answer with a numeric sort field: each page in the order asked, and its first entry not out of order with the last entry of the page before.',
		onBreach: "The read fails: the spending gate confirms nothing (each item says today's spending could not be read), Skip Items Already Sent sends nothing, Get Many stops with the message.",
	},
	'reference-filter': {
		usedBy: ['reruns/keyLookups.ts'],
		ifBroken: 'A fresh process at a big account looks each new key up by reference (a keyed mail run: reads the jobs under `n8n mail run`): an answer holding other jobs reads as "never sent", and 100 of 100 sent keys were posted again.',
		checked: 'Every lookup: each job in the answer carries the reference asked for.',
		onBreach: 'The lookups are dropped and the look-back window is read instead (more requests, the same proof); the index remembers nothing the lookups answered.',
	},
	'mode-filters': {
		usedBy: ['spending/dayRead.ts', 'reruns/sentKeyIndex.ts'],
		ifBroken: "Test jobs would count as live spending or as sent letters, drafts as today's confirms; live letters would count as test ones.",
		checked: 'Every list answer: each job that carries `testmode` or `confirmed` has the value asked for (the readers ask for both fields).',
		onBreach: 'The read fails, as for list-order.',
	},
	projection: {
		usedBy: ['spending/dayRead.ts', 'reruns/sentKeyIndex.ts'],
		ifBroken: 'A job listed without `metadata` reads as carrying no sent key and no claim (a letter sent twice, a claim not counted); without `cost` or `confirmed_at` its price or day is unknown.',
		checked: 'Every list answer asked with `fields[]`: each entry has each field asked for.',
		onBreach: 'The read fails, as for list-order.',
	},
	counts: {
		usedBy: ['transport/pagination.ts', 'spending/dayRead.ts'],
		ifBroken: "Today's read proves it missed no confirm by the list's count; claims are read again when the count moves. A count that does not add up proves nothing.",
		checked: 'Every list answer that carries `total_available`.',
		onBreach: 'The read fails, as for list-order.',
	},
	paging: {
		usedBy: ['transport/pagination.ts', 'reruns/sentKeyIndex.ts'],
		ifBroken: 'A list that ignores `skip` repeats its first page: Return All would page forever and the look-back would look complete while it is not.',
		checked: 'Every paged read: a page that brings nothing new while the list says it has more.',
		onBreach: 'The read stops with a message; nothing that depends on it is sent.',
	},
	'listing-delay': {
		usedBy: ['spending/dayRead.ts'],
		ifBroken: 'A check that cannot see its own drafts or last confirm cannot tell what other processes saw of them.',
		checked: "Every check under the daily limit waits (0.2, 0.4 … 2 s apart) until the lists show this process's own drafts and its confirms made alone.",
		onBreach: "After 30 seconds the check refuses: nothing is confirmed, each item names its draft.",
	},
	'price-on-jobs': {
		usedBy: ['spending/spending.ts', 'spending/dayRead.ts'],
		ifBroken: 'A draft without a price cannot be held to a limit; a confirmed job without one would count as £0.',
		checked: 'Every answer the gate reads (priceAfterTax).',
		onBreach: 'A draft without a price is never confirmed under a limit; a day holding a job without one cannot be read, so nothing is confirmed.',
	},
	'metadata-kept': {
		usedBy: ['reruns/sentKeyIndex.ts', 'spending/dayRead.ts', 'actions/printJob/createJob.ts'],
		ifBroken: "The sent key (`n8n_sent_key`) and the claim on the day (`n8n_spend_claim`) live there: without them reruns and other processes' checks cannot see the job.",
		checked: "Every create that carries them: the answer must hold them as sent. `npm run check:api` also reads a job's metadata back alone and in a list.",
		onBreach: "The job is named and not confirmed (one confirmed on create went out, and the message says a rerun cannot find it); the credential's later keyed or limited creates are refused with nothing made, until n8n restarts.",
	},
	'metadata-budget': {
		usedBy: ['rowRecords/metadataBudget.ts', 'building/mailRunParts.ts', 'reruns/keyLookups.ts', 'results/letterRow.ts'],
		ifBroken: "A mail run's rows live in its jobs' metadata (rowRecords/): each row's place, address digest, sent key and Row ID. An API that kept less would drop rows' keys (a rerun would post them again) or Row IDs (a trigger could not name the row).",
		checked: "Every create that carries rows' keys: the answer must hold every entry as sent (metadata-kept's check at the create). `npm run check:api` makes a test draft with 50 entries of 500 characters and reads it back.",
		onBreach: "The job is named and not confirmed, and the credential's later keyed creates are refused with nothing made (as for metadata-kept); check:api reports how much came back. Lower Letters per Print Job only helps where the API keeps less per job, not where it cuts values.",
	},
	'keyed-reference': {
		usedBy: ['reruns/alreadySent.ts', 'actions/printJob/update.operation.ts', 'actions/printJob/createJob.ts'],
		ifBroken: 'At a big account a fresh process finds sent keys by reference: a renamed job is not found and its letter is made again. Where the process reads the window instead (a small account, or many new keys) it finds the job by its metadata.',
		checked: 'The node never makes one: Create sets the reference to the key, and Update refuses to change it (it reads the job only when Reference is among the changes). `npm run check:api` counts the renamed ones in the account.',
		onBreach: 'Reported by check:api with the jobs it found; rename them back, or keep Skip Items Already Sent runs in one n8n process.',
	},
	'rate-limit': {
		usedBy: ['transport/send.ts', 'transport/pacing.ts'],
		ifBroken: 'A create answered 429 is sent again: if the API had acted on it, the letter would be made twice.',
		checked: 'Not on the wire (nothing in a 429 says whether the API acted); by check:api: not provoked, as it would cost the account its rate budget.',
		onBreach: 'Nothing to do at run time; documented.',
	},
	'error-answers': {
		usedBy: ['transport/errors.ts', 'transport/send.ts'],
		ifBroken: 'A 4xx create is never sent again; a message without its request ID is harder to take to support.',
		checked: 'Every error answer is read by its shape; an answer of another shape is reported as such.',
		onBreach: 'The message says what came back and gives the request ID when there is one.',
	},
	'mailing-lists': {
		usedBy: ['actions/mailingList/getMany.operation.ts', 'building/mailingLists.ts'],
		ifBroken: 'Mailing list operations and the From List pickers fail.',
		checked: 'Every answer is checked for its object and ID; by check:api: the list of mailing lists.',
		onBreach: 'The operation stops with what came back.',
	},
	templates: {
		usedBy: ['building/printJobSource.ts'],
		ifBroken: 'Print Job → Create from a template fails (the API refuses the ID).',
		checked: 'By check:api only when `INTELLIPRINT_TEMPLATE_ID` is given (a test draft from it, deleted again).',
		onBreach: 'The create is refused with the API\'s own message.',
	},
	'returned-date': {
		usedBy: ['../IntelliprintStatusTrigger/watch.ts', '../IntelliprintStatusTrigger/readDown.ts'],
		ifBroken: 'The Status Trigger reads returned letters newest return first, down to the newest return date it read before less two days: a list in another order, or dates in other units, would make it miss returns or read them all every poll.',
		checked: 'Every page of returned letters: each job no later in return date than the one before it, every returned letter with a date, none past tomorrow. `npm run check:api` reads the account\'s returned letters so.',
		onBreach: 'The poll stops and emits nothing, naming the letter or the order; its state is kept, so the next poll reads the same returns again.',
	},
	'postage-abroad': {
		usedBy: ['addresses/postage.ts', 'building/postageByDestination.ts'],
		ifBroken:
			"The node picks each letter's service by its country (the UK, BFPO and the Crown dependencies by the UK service chosen, everywhere else `international`) and makes one print job per service. An API that put a letter on another service than its job's, or read its country otherwise, would post a letter abroad at a UK price (returned, or late) or one in the UK at the international price; one that refused `international` would leave every row abroad unsent.",
		checked:
			"Every create's answer, before any confirm: each letter's `postage_service` (else the job's `postage.service`) must carry it to its `address.country`, a letter without one read as GB (lettersFit). Update's new service is held to the draft's letters before it is sent (serviceFitsDraft). `npm run check:api` makes a test draft to France by `international`, and says what the account does with the pairs the node never sends: a UK service abroad, `international` in the UK, a postcard abroad.",
		onBreach:
			"The job is not confirmed: a draft stays a draft and is named, to delete or send again (one the API confirmed on create is named as confirmed, to cancel); an update is refused with nothing changed; a create the API refuses fails on its rows' items with the API's message.",
	},
};
