/** What the server page of a competition passes down to its dashboard components. */

/** Category and difficulty choices, read on the server from the domain's lists, and the file size limit from the configuration. */
export type CtfOptions = {
  categories: readonly string[];
  difficulties: readonly string[];
  /** The largest challenge file the server accepts (FILE_MAX_BYTES). */
  maxFileBytes: number;
};
