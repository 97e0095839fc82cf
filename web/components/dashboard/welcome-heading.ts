/**
 * The dashboard's greeting from the (maybe admin-set) welcome title and the first name: the spec's
 * 'Welcome back!' reads 'Welcome back, Jane!', and a title that already names the customer is kept as
 * written, so 'Good to see you, Jane' never becomes 'Good to see you, Jane, Jane!'.
 */
export function welcomeHeading(title: string, firstName: string): string {
  const trimmed = title.trim();
  const name = firstName.trim();
  if (!name) return trimmed;
  if (!trimmed) return `Welcome back, ${name}!`;
  const namePattern = new RegExp(`(^|[^\\p{L}])${escapeRegExp(name)}($|[^\\p{L}])`, "iu");
  if (namePattern.test(trimmed)) return trimmed;
  const ending = /[!.?]$/.exec(trimmed)?.[0] ?? "!";
  return `${trimmed.replace(/[\s,!.?]+$/, "")}, ${name}${ending}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
