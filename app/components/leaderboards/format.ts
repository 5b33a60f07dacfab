/** Numbers and times as the boards show them; fixed locale and UTC so server and browser agree. */
export const formatXp = (xp: number) => `${xp.toLocaleString("en")} XP`;

const UTC = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export const formatUtc = (at: Date | string) => `${UTC.format(new Date(at))} UTC`;
