//! R's argument matching: which argument of a call each parameter of the
//! function gets, by exact name, then unique prefix (for the parameters
//! before `...`), then position; the rest goes to `...`. So
//! `system(intern = TRUE, com = "…")` gives `command` its value, as R does.

use super::tree::Arg;

/// R's argument matching for a function with `params` (`...` among them):
/// exact names, then unique prefixes of the parameters before `...`,
/// then positions; what is left goes to `...`.
pub(super) struct Matched {
    pub params: Vec<Option<usize>>,
    pub dots: Vec<usize>,
}

pub(super) fn matched(params: &[&str], args: &[Arg]) -> Matched {
    let mut by_param: Vec<Option<usize>> = vec![None; params.len()];
    let mut used = vec![false; args.len()];
    let dots_at = params
        .iter()
        .position(|p| *p == "...")
        .unwrap_or(params.len());
    for exact in [true, false] {
        for (k, a) in args.iter().enumerate() {
            let Some(name) = a.name.as_deref().filter(|_| !used[k]) else {
                continue;
            };
            let hits: Vec<usize> = (0..params.len())
                .filter(|&p| by_param[p].is_none() && params[p] != "...")
                .filter(|&p| {
                    if exact {
                        params[p] == name
                    } else {
                        p < dots_at && !name.is_empty() && params[p].starts_with(name)
                    }
                })
                .collect();
            if let [p] = hits.as_slice() {
                by_param[*p] = a.value;
                used[k] = true;
            }
        }
    }
    let free: Vec<usize> = (0..dots_at).filter(|&p| by_param[p].is_none()).collect();
    let mut free = free.into_iter();
    let mut dots = Vec::new();
    for (k, a) in args.iter().enumerate() {
        if used[k] {
            continue;
        }
        let Some(v) = a.value else { continue };
        // A name that matched no parameter goes to `...`, as R does.
        match a.name.is_none().then(|| free.next()).flatten() {
            Some(p) => by_param[p] = Some(v),
            None => dots.push(v),
        }
    }
    Matched {
        params: by_param,
        dots,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: Option<&str>, value: usize) -> Arg {
        Arg {
            name: name.map(str::to_owned),
            value: Some(value),
        }
    }

    #[test]
    fn names_then_prefixes_then_positions() {
        let params = ["command", "intern", "wait"];
        let m = matched(
            &params,
            &[arg(Some("intern"), 1), arg(Some("com"), 2), arg(None, 3)],
        );
        assert_eq!(m.params, [Some(2), Some(1), Some(3)]);
        let m = matched(
            &["...", "file"],
            &[arg(None, 1), arg(Some("fil"), 2), arg(Some("file"), 3)],
        );
        assert_eq!((m.params, m.dots), (vec![None, Some(3)], vec![1, 2]));
        let m = matched(&["x", "recursive"], &[arg(Some("nope"), 1), arg(None, 2)]);
        assert_eq!((m.params, m.dots), (vec![Some(2), None], vec![1]));
    }
}
