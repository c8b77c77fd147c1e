// What controllers read off an API error's Status body, as apimachinery's
// errors helpers do (k8s.io/apimachinery/pkg/api/errors).

/**
 * HasStatusCause(err, NamespaceTerminatingCause): the Status lists a cause with
 * that reason. A StatusCause's type is serialised as "reason".
 */
export function hasNamespaceTerminatingCause(body: string): boolean {
  try {
    const causes = (JSON.parse(body) as { details?: { causes?: { reason?: string }[] } }).details?.causes;
    return Array.isArray(causes) && causes.some((c) => c?.reason === 'NamespaceTerminating');
  } catch {
    return false;
  }
}
