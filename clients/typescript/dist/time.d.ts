/** An RFC 3339 date-time with an offset (`2026-07-29T06:00:00+08:00`) as a Date. */
export declare function parseInstant(text: string): Date;
/** A naive wall time (`2026-07-29T06:00:00`) of an IANA zone as a Date. */
export declare function naiveToInstant(text: string, zone: string): Date;
