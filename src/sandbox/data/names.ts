// Name and text pools for seeded people; some values carry a comma or a quote so CSV quoting gets exercised.

export const FEMALE_FIRST_NAMES = [
  'Amelia',
  'Chloe',
  'Fatima',
  'Grace',
  'Hana',
  'Isla',
  'Julia',
  'Leila',
  'Maya',
  'Nora',
  'Olivia',
  'Priya',
  'Rosa',
  'Sofia',
  'Zoe',
] as const;

export const MALE_FIRST_NAMES = [
  'Aaron',
  'Ben',
  'Carlos',
  'Daniel',
  'Ethan',
  'Felix',
  'Hugo',
  'Ibrahim',
  'Jonas',
  'Kenji',
  'Liam',
  'Marco',
  'Omar',
  'Ravi',
  'Theo',
] as const;

export const LAST_NAMES = [
  'Andersen',
  'Baker',
  'Chen',
  "D'Souza",
  'Evans',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Murphy',
  'Nakamura',
  "O'Brien",
  'Patel',
  'Rossi',
  'Smith, Jr.',
  'Tanaka',
  'van der Berg',
  'Walsh',
  'Yilmaz',
] as const;

export const CUSTOMER_NOTES = [
  'Prefers "early" appointments, weekdays only',
  'Allergic to latex; use nitrile gloves',
  'Speaks Spanish, English',
  'Referred by Dr. Walsh, "urgent" follow-up',
] as const;

export const OPEN_LEAD_STATUSES = ['new', 'contacted', 'qualified', 'lost'] as const;
