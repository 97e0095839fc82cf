// Customers in bulk for the re-screen job's bench and its kill -9 test: one statement each for the users and their
// current KYC applications (generate_series), on a scratch database. Not the app's sign-up: a re-screen reads
// only these columns, and 100,000 sign-ups through the routes would take longer than the re-screen itself.

/** What can run SQL: a Database, or a pg client. */
interface Runs {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

const CHUNK = 5_000;

/** SDN 7744: MLADIC, Ratko, individual, DOB 12 Mar 1943 (the real extract of 2024-05-03). */
export const LISTED = { entNum: 7744, firstName: "Ratko", lastName: "Mladic", dob: "1943-03-12" };

// Common given and family names from several origins, so the matcher's index sees what a real customer base
// gives it (candidates from shared tokens), not one repeated name.
const GIVEN = [
  "James",
  "Maria",
  "Mohammed",
  "Wei",
  "Olga",
  "Ali",
  "Priya",
  "Chinedu",
  "Minh",
  "Fatemeh",
  "Carlos",
  "Aisha",
  "Sergei",
  "Jose",
  "Li",
  "Omar",
  "Anna",
  "Hassan",
  "Nguyen",
  "Ahmed",
  "Emily",
  "Juan",
  "Reza",
  "Kwame",
];
const FAMILY = [
  "Smith",
  "Garcia",
  "Khan",
  "Zhang",
  "Ivanova",
  "Hosseini",
  "Patel",
  "Okafor",
  "Tran",
  "Rahman",
  "Lopez",
  "Hussein",
  "Petrov",
  "Martinez",
  "Chen",
  "Ali",
  "Johnson",
  "Ahmadi",
  "Nguyen",
  "Mensah",
  "Brown",
  "Kim",
];

const PLAIN_GIVEN = [
  "Harriet",
  "Bartholomew",
  "Winifred",
  "Percival",
  "Millicent",
  "Cuthbert",
  "Ottilie",
  "Fenwick",
];
const PLAIN_FAMILY = ["Thistlewood", "Ashcombe", "Pennyworth", "Fairweather", "Hollingsworth", "Brackenbury"];

/**
 * `count` customers, each with a current KYC application (a date of birth between 1940 and 2005); every
 * `listedEvery`-th one applied with the listed name and date of birth (answers how many that is).
 */
export async function seedCustomers(
  db: Runs,
  count: number,
  listedEvery: number,
  tag = "seed",
  names: "varied" | "plain" = "varied",
): Promise<number> {
  // "plain": names whose words are rare on the list, cheap to screen (a test of the job, not of the matcher).
  const givenNames = names === "plain" ? PLAIN_GIVEN : GIVEN;
  const familyNames = names === "plain" ? PLAIN_FAMILY : FAMILY;
  const given = `array[${givenNames.map((g) => `'${g}'`).join(",")}]`;
  const family = `array[${familyNames.map((f) => `'${f}'`).join(",")}]`;
  // In chunks: one statement stays well inside the pool's query timeout on a loaded machine.
  for (let from = 1; from <= count; from += CHUNK) {
    await db.query(
      `with g as (
       select n,
         case when n % $2 = 0 then $3 else (${given})[1 + (n * 7) % ${givenNames.length}] end as first_name,
         case when n % $2 = 0 then $4 else (${family})[1 + (n * 13) % ${familyNames.length}] || ' ' || (${family})[1 + (n * 5) % ${familyNames.length}] end as last_name,
         case when n % $2 = 0 then $5::date else date '1940-01-01' + ((n * 7919) % 23725) end as dob
       from generate_series($7::int, $1::int) n),
     u as (
       insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       select $6 || '-' || n || '@bench.test', first_name, last_name, $6 || n, 'x', true from g
       returning id, email)
     insert into kyc_applications (user_id, account_type, first_name, last_name, date_of_birth, street, city, state,
       zip_code, address, ssn_ciphertext, ssn_index, ssn_last4, status)
     select u.id, 'personal', g.first_name, g.last_name, g.dob, '1 Main St', 'New York', 'NY', '10001',
       '1 Main St, New York, NY 10001', 'x', md5(u.email), '1234', 'approved'
     from u join g on u.email = $6 || '-' || g.n || '@bench.test'`,
      [
        Math.min(from + CHUNK - 1, count),
        listedEvery,
        LISTED.firstName,
        LISTED.lastName,
        LISTED.dob,
        tag,
        from,
      ],
    );
  }
  return Math.floor(count / listedEvery);
}
