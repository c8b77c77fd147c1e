import { describe, expect, it } from 'vitest';
import { status } from '../../apimachinery/status';
import { formatError } from './errors';

describe('formatError (cmdutil.CheckErr)', () => {
  it('prints API errors with their reason', () => {
    expect(formatError({ type: 'StatusError', status: status.notFound({ group: '', resource: 'pods' }, 'x') })).toEqual({ text: 'Error from server (NotFound): pods "x" not found\n', exitCode: 1 });
    expect(formatError({ type: 'StatusError', status: status.forbidden({ group: '', resource: 'pods' }, '', 'User "jane" cannot list resource "pods" in API group "" in the namespace "default"') }).text).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect(formatError({ type: 'StatusError', status: status.unauthorized() }).text).toBe('error: You must be logged in to the server (Unauthorized)\n');
  });

  it('prints Invalid errors cause by cause', () => {
    const one = status.invalid({ group: 'apps', kind: 'Deployment' }, 'web', [{ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: -1, detail: 'must be greater than or equal to 0' } as never]);
    expect(formatError({ type: 'StatusError', status: one }).text).toBe('The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n');
    const two = { ...one, details: { ...one.details, causes: [{ field: 'a', message: 'x' }, { field: 'b', message: 'y' }] } };
    expect(formatError({ type: 'StatusError', status: two }).text).toBe('The Deployment "web" is invalid: \n* a: x\n* b: y\n');
  });

  it('names unknown resource types and aggregates several errors line by line', () => {
    expect(formatError({ type: 'NoResourceMatch', resource: 'foo', group: '', version: '' }).text).toBe('error: the server doesn\'t have a resource type "foo"\n');
    const nf = (n: string) => ({ type: 'StatusError' as const, status: status.notFound({ group: '', resource: 'pods' }, n) });
    expect(formatError({ type: 'Aggregate', errors: [nf('a'), nf('b')] }).text).toBe('Error from server (NotFound): pods "a" not found\nError from server (NotFound): pods "b" not found\n');
    expect(formatError({ type: 'UsageError', message: 'Required resource not specified.', commandPath: 'kubectl get' }).text).toBe("error: Required resource not specified.\nSee 'kubectl get -h' for help and examples\n");
    expect(formatError({ type: 'Exit', code: 1 })).toEqual({ text: '', exitCode: 1 });
  });
});
