// A container's writable file system, as far as its programs and exec
// commands touch it. Every write is stamped with the virtual time it happens
// at and reads look at the state as of their own time, so a process that runs
// ahead of an observer (the runtime interprets lazily) never leaks its future.
// Paths are absolute and normalised; directories exist implicitly above files
// and explicitly once made.

export interface FsVersion {
  at: number;
  /** null: removed. */
  content: string | null;
  dir: boolean;
}

export class FileSystem {
  /** path → its versions, oldest first. */
  readonly files: Record<string, FsVersion[]> = {};

  constructor(initial: Record<string, string> = {}, dirs: readonly string[] = []) {
    for (const d of dirs) this.files[normalise(d)] = [{ at: -Infinity, content: '', dir: true }];
    for (const [p, c] of Object.entries(initial)) this.files[normalise(p)] = [{ at: -Infinity, content: c, dir: false }];
  }

  private version(path: string, at: number): FsVersion | null {
    const vs = this.files[normalise(path)];
    if (!vs) return null;
    let hit: FsVersion | null = null;
    for (const v of vs) if (v.at <= at) hit = v;
    return hit && hit.content !== null ? hit : null;
  }

  /** The file's content at `at` (null when there is no such regular file). */
  read(path: string, at: number): string | null {
    const v = this.version(path, at);
    return v && !v.dir ? v.content : null;
  }

  isFile(path: string, at: number): boolean {
    const v = this.version(path, at);
    return !!v && !v.dir;
  }

  isDir(path: string, at: number): boolean {
    const p = normalise(path);
    if (p === '/') return true;
    const v = this.version(p, at);
    if (v) return v.dir;
    // A directory exists above any file that exists.
    return this.children(p, at).length > 0;
  }

  exists(path: string, at: number): boolean {
    return this.isFile(path, at) || this.isDir(path, at);
  }

  /** Names directly inside a directory, sorted. */
  children(dir: string, at: number): string[] {
    const base = normalise(dir);
    const prefix = base === '/' ? '/' : `${base}/`;
    const out = new Set<string>();
    for (const p of Object.keys(this.files)) {
      if (!p.startsWith(prefix) || p === base) continue;
      const v = this.version(p, at);
      if (!v) continue;
      out.add(p.slice(prefix.length).split('/')[0]!);
    }
    return [...out].sort();
  }

  write(path: string, at: number, content: string, append = false): void {
    const p = normalise(path);
    const before = append ? (this.read(p, at) ?? '') : '';
    this.push(p, { at, content: before + content, dir: false });
  }

  mkdir(path: string, at: number): void {
    this.push(normalise(path), { at, content: '', dir: true });
  }

  /** Removes a file, or (recursive) a directory and what it holds. */
  remove(path: string, at: number, recursive = false): void {
    const p = normalise(path);
    if (recursive) for (const q of Object.keys(this.files)) if (q.startsWith(`${p}/`) && this.version(q, at)) this.push(q, { at, content: null, dir: false });
    this.push(p, { at, content: null, dir: false });
  }

  private push(p: string, v: FsVersion): void {
    const vs = (this.files[p] ??= []);
    // Keep versions ordered by time; a rewrite at the same instant replaces.
    let i = vs.length;
    while (i > 0 && vs[i - 1]!.at > v.at) i--;
    if (i > 0 && vs[i - 1]!.at === v.at) vs[i - 1] = v;
    else vs.splice(i, 0, v);
    // Bounded history: older versions nobody can read any more are dropped.
    if (vs.length > 8) vs.splice(0, vs.length - 8);
  }
}

/** `/a/./b//c/` → `/a/b/c`; relative paths are taken from `/`. */
export function normalise(path: string, cwd = '/'): string {
  const parts: string[] = [];
  for (const seg of (path.startsWith('/') ? path : `${cwd}/${path}`).split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`;
}
