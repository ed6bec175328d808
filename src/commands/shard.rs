//! Which shard of a run this machine plays: from `--shard K/N`, from
//! `RULECHECK_SHARD`, or from a Kubernetes Indexed Job's
//! `JOB_COMPLETION_INDEX` with the number of shards from `--shards` or
//! `RULECHECK_SHARDS`.

/// Parses `K/N` (1-based K) into a 0-based shard.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or_else(|| format!("a shard is K/N, not `{s}`"))?;
    let k: u64 = k.trim().parse().map_err(|_| format!("bad shard index in `{s}`"))?;
    let n: u64 = n.trim().parse().map_err(|_| format!("bad shard count in `{s}`"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard `{s}` must have 1 ≤ K ≤ N"));
    }
    Ok((k - 1, n))
}

/// The environment variable that names this machine's shard, `K/N`
/// (1-based), for any batch system or CI matrix.
pub const SHARD_ENV: &str = "RULECHECK_SHARD";
/// The environment variable a Kubernetes Indexed Job sets on each pod: its
/// completion index, 0-based.
pub const JOB_INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
/// The number of shards beside `JOB_COMPLETION_INDEX` (the Job's
/// `completions`), when `--shards` does not give it.
pub const SHARDS_ENV: &str = "RULECHECK_SHARDS";

/// This machine's shard (0-based index, count), from the first of: `--shard
/// K/N`; `RULECHECK_SHARD=K/N`; `JOB_COMPLETION_INDEX` (0-based) out of
/// `--shards N` or `RULECHECK_SHARDS=N`. `env` reads a variable (`Err` for
/// one that is not UTF-8). A bad value is an error naming its flag or
/// variable.
pub fn resolve_shard(
    flag: Option<&str>,
    shards: Option<u64>,
    env: &dyn Fn(&str) -> Result<Option<String>, String>,
) -> Result<Option<(u64, u64)>, String> {
    if let Some(s) = flag {
        if shards.is_some() {
            return Err("give either --shard K/N or --shards N (with JOB_COMPLETION_INDEX), not both".into());
        }
        return parse_shard(s).map(Some).map_err(|e| format!("--shard: {e}"));
    }
    if let Some(s) = env(SHARD_ENV)? {
        return parse_shard(&s).map(Some).map_err(|e| format!("the environment variable {SHARD_ENV}: {e}"));
    }
    let Some(index) = env(JOB_INDEX_ENV)? else {
        return match shards {
            Some(_) => Err(format!("--shards N needs a shard index: {JOB_INDEX_ENV} is not set")),
            None => Ok(None),
        };
    };
    let k: u64 = index.trim().parse().map_err(|_| {
        format!("the environment variable {JOB_INDEX_ENV} is `{index}`, not a completion index (0, 1, 2, …)")
    })?;
    let n = match (shards, env(SHARDS_ENV)?) {
        (Some(n), _) => n,
        (None, Some(v)) => v.trim().parse().ok().filter(|&n| n > 0).ok_or_else(|| {
            format!("the environment variable {SHARDS_ENV} is `{v}`, not a number of shards (1 or more)")
        })?,
        (None, None) => {
            return Err(format!(
                "{JOB_INDEX_ENV} is set ({k}) but not how many shards there are; pass --shards N or set {SHARDS_ENV}=N (the Job's completions)"
            ));
        }
    };
    if k >= n {
        return Err(format!(
            "the environment variable {JOB_INDEX_ENV} is {k}, but there are only {n} shards (0 to {})",
            n - 1
        ));
    }
    Ok(Some((k, n)))
}

/// Reads an environment variable for `resolve_shard`.
pub fn env_var(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name) {
        Ok(v) => Ok(Some(v)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("the environment variable {name} is not UTF-8")),
    }
}
