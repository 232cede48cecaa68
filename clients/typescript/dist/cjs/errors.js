"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ActivitySiteError = void 0;
class ActivitySiteError extends Error {
    code;
    name = "ActivitySiteError";
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
    }
}
exports.ActivitySiteError = ActivitySiteError;
