/** When a fetched robots.txt's status decided for the whole site (401/403 closed, 5xx closed for now, other 4xx open). */
export interface SiteWide {
  readonly allowed: boolean;
  readonly detail: string;
}
