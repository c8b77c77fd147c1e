// Name rules of the API server (pkg/api/validation/generic.go, pkg/api/validation/path/name.go);
// the string formats themselves are apimachinery's (engine/apimachinery/validation/names.ts).
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names';

/** generic.go maskTrailingDash: a generateName may end in '-'. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

export type NameFn = (name: string, prefix: boolean) => string[];

export const nameIsDNSSubdomain: NameFn = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameFn = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameFn = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** path.ValidatePathSegmentName: the rule for RBAC objects and other names that only go into URLs. */
export const validatePathSegmentName: NameFn = (name, prefix) => {
  if (!prefix) {
    for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  }
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
};
