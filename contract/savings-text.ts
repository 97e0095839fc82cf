// No zod here: the dashboard and the savings page read these (report-bundle.mjs checks the dashboard loads no zod).

/** Savings at a variable APY (decision 068): the words the customer reads. */
export const SAVINGS_MESSAGES = {
  opened: "Savings account opened",
  alreadyOpen: "You already have a savings account",
  notOpen: "Open a savings account first",
  moved: "Money moved",
  closed: "Savings account closed: its money is in Checking",
  goalNotFound: "That savings goal does not exist",
  insufficientChecking: "Not enough available in Checking for this move",
  insufficientSavings: "Not enough in Savings for this move",
  variableRate: "Variable rate; it may change after the account is opened.",
} as const;

export const SAVINGS_DIRECTIONS = ["to_savings", "to_checking"] as const;
export type SavingsDirection = (typeof SAVINGS_DIRECTIONS)[number];

/** An APY in basis points written as the customer reads it: 250 → "2.50%". */
export function formatApy(apyBps: number): string {
  return `${(apyBps / 100).toFixed(2)}%`;
}

/** A goal's name, at most this long (savings_goals_name_check). */
export const GOAL_NAME_MAX = 60;

export const GOAL_MESSAGES = {
  nameRequired: "Name the goal",
  nameTooLong: `A goal's name can be at most ${GOAL_NAME_MAX} characters`,
  targetRequired: "Enter a target amount",
} as const;
