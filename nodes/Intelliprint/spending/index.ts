/** The spending gate, the one door every confirm passes: docs/spending-limits.md, and spending.ts to start reading. */
export * from './spending';
export * from './spendingRoom';
export { CLAIM_METADATA } from './dayRead';
export { namingEarlierDraft } from './refusals';
export { handBack } from './confirmLine';
