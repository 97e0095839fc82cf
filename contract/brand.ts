/** The product's name lives here only, so a rename is one edit. The handle field is `pillarTag`, shown as `$handle`. */
export const BRAND = {
  name: "Pillar",
  handleLabel: "Pillar tag",
  supportEmail: "support@pillar.bank",
} as const;
