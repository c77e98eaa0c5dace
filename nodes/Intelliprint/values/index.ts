/**
 * Parameter values read one strict way: text, numbers, Confirm and amounts in pounds (a value that is not clearly
 * one of the accepted forms is reported on its item, never guessed), resource locators, and item fields read without
 * n8n's expression engine. Called by every operation; it calls nothing of the node's own.
 */

export * from './itemFields';
export * from './parameters';
export * from './strictValues';
export * from './values';
export * from './ukDay';
export * from './inTurns';
