export declare const BASIC_UNICODE_RANGE: string;
