export class ActivitySiteError extends Error {
    code;
    name = "ActivitySiteError";
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
    }
}
