/**
 * The spending gate, the one door every confirm passes (docs/spending-limits.md; start reading at spending.ts): Confirm
 * and both limits read strictly, the run's room and allowance (spendingRoom.ts), each confirm decided in line
 * (confirmLine.ts) on what the lists show (dayRead.ts), and the one pass without which the transport sends no confirm.
 */
export * from './spending';
export * from './spendingRoom';
export { CLAIM_METADATA } from './dayRead';
export { handBack } from './confirmLine';
