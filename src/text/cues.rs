//! The one cue table: every hand-written phrase list a reader of text looks for. What
//! opens a rule's reason and which words only give its polarity (a rule's directive and
//! content, the strict matcher); what addresses the agent rather than stating a rule (the
//! strict matcher); and the correction classifier's cue kinds, each a feature its model
//! weighs. Lists the classifier reads are accent-free and lower case, as it reads text.

/// Words that only say "do this", in lower case: a rule's polarity, not its content.
pub(crate) const AFFIRMING: &[&str] = &[
    "always",
    "prefer",
    "please",
    "toujours",
    "préfère",
    "préférer",
    "preferer",
    "privilégie",
    "privilégier",
];

/// Words that say "do not", in lower case: a rule's polarity, not its content.
pub(crate) const DENYING: &[&str] = &[
    "never", "not", "don't", "dont", "avoid", "jamais", "pas", "ne", "n'", "évite", "éviter",
    "evite", "eviter", "plus",
];

/// What opens a rule's reason, in lower case: the text before it is the directive.
pub(crate) const REASONS: [&str; 7] = [
    " - ",
    " — ",
    " – ",
    " because ",
    " parce qu",
    " car ",
    " since ",
];

/// What a user says to the agent around a rule, not the rule itself, in lower case: a
/// sentence that opens with one and a comma or colon ("No, use pnpm.", "I told you: never
/// push to main.") or closes with a comma and one ("Never push to main, I told you.") says
/// the rule between.
pub(crate) const ADDRESSES: &[&str] = &[
    "no",
    "non",
    "so",
    "ok",
    "okay",
    "again",
    "encore",
    "please",
    "thanks",
    "merci",
    "s'il te plaît",
    "i said",
    "as i said",
    TOLD[0],
    TOLD[1],
    TOLD[2],
];

/// "I told you": an address to the agent for the strict matcher, and a personal cue for
/// the classifier.
pub(crate) const TOLD: [&str; 3] = ["i told you", "je te l'ai dit", "je t'ai dit"];

/// What sets aside an alternative after a sentence's directive ("Use pnpm, not npm"):
/// the directive before it is said whole.
pub(crate) const ALTERNATIVES: &[&str] = &[
    ", not ",
    ", never ",
    " instead of ",
    " rather than ",
    ", pas ",
    ", jamais ",
    " au lieu de ",
    " au lieu d'",
    " plutôt que ",
];

/// Personal cues (the feature `k personal`, with [`TOLD`]): the user addresses a mistake
/// of the agent's. Hand-written before the model; the model weighs them with the rest.
pub(crate) const PERSONAL: &[&str] = &[
    "i already told you",
    "i've told you",
    "ive told you",
    "i have told you",
    "how many times",
    "i said to",
    "i said not",
    "i said we",
    "i said use",
    "i asked you to",
    "i asked you not",
    "you forgot",
    "you keep",
    "you always forget",
    "you did it again",
    "you were supposed to",
    "you should have",
    "you shouldn't have",
    "you should not have",
    "you ignored",
    "you didn't follow",
    "you did not follow",
    "that's not what i",
    "that is not what i",
    "this is not what i",
    "not what i asked",
    "je t'avais dit",
    "je vous ai dit",
    "je vous avais dit",
    "je l'ai deja dit",
    "combien de fois",
    "tu as oublie",
    "tu as encore",
    "tu oublies",
    "vous avez oublie",
    "tu aurais du",
    "vous auriez du",
    "tu n'aurais pas du",
    "ce n'est pas ce que",
    "c'est pas ce que",
];

/// Lasting-rule cues (`k strong`): "from now on", "désormais".
pub(crate) const STRONG: &[&str] = &[
    "from now on",
    "going forward",
    "from here on",
    "in the future ,",
    "next time",
    "for future reference",
    "never again",
    "don't ever",
    "do not ever",
    "never ever",
    "that's wrong",
    "that is wrong",
    "this is wrong",
    "that's not right",
    "that is not right",
    "not like that",
    "not that way",
    "we always",
    "we never",
    "we don't use",
    "we do not use",
    "we prefer",
    "our convention",
    "the convention here",
    "in this repo we",
    "in this project we",
    "in this codebase we",
    "here we use",
    "we use tabs",
    "we use spaces",
    "please remember",
    "remember that",
    "keep in mind",
    "stop using",
    "stop adding",
    "stop doing",
    "stop writing",
    "stop creating",
    "stop putting",
    "stop running",
    "stop changing",
    "stop touching",
    "a partir de maintenant",
    "desormais",
    "dorenavant",
    "a l'avenir",
    "la prochaine fois",
    "plus jamais",
    "ne jamais",
    "c'est faux",
    "pas comme ca",
    "on utilise toujours",
    "on n'utilise jamais",
    "on n'utilise pas",
    "ici on utilise",
    "chez nous on",
    "dans ce projet on",
    "dans ce repo on",
    "nous utilisons toujours",
    "souviens-toi",
    "rappelle-toi",
    "retiens que",
    "arrete de",
    "arretez de",
    "n'utilise jamais",
    "n'utilisez jamais",
];

/// Openers (`k opener`), matched at the start of a sentence (after `|`).
pub(crate) const STRONG_OPENERS: &[&str] = &[
    "| no ,",
    "| no |",
    "| no no",
    "| nope",
    "| non ,",
    "| non |",
    "| non non",
    "| wrong",
    "| always ",
    "| never ",
    "| toujours ",
    "| jamais ",
    "| ne jamais",
    "| we use ",
    "| on utilise ",
    "| nous utilisons ",
    "| utilise plutot",
    "| utilisez plutot",
    "| ne touche jamais",
];

/// Weak cues (`k weak`, and `k weak 2` for two or more): common in corrections and in
/// ordinary prompts alike.
pub(crate) const WEAK: &[&str] = &[
    "instead",
    "rather than",
    "not npm",
    "not yarn",
    "again",
    "why did you",
    "why would you",
    "pourquoi as-tu",
    "pourquoi tu as",
    "pourquoi avez-vous",
    "plutot",
    "au lieu de",
    "a la place",
    "encore",
    "wrong",
    "incorrect",
    "mistake",
    "erreur",
    "faux",
    "don't",
    "do not",
    "dont",
    "never",
    "always",
    "ne pas",
    "n'utilise pas",
    "n'utilisez pas",
    "ne mets pas",
    "ne fais pas",
    "ne touche pas",
    "stop",
    "anymore",
    "any more",
    "in this repo",
    "in this project",
    "dans ce projet",
    "please use",
    "use only",
    "only use",
];

/// Phrases that look like cues but are not ("never mind", "no problem"): `k excuse`.
pub(crate) const EXCUSES: &[&str] = &[
    "| never mind",
    "| nevermind",
    "| no problem",
    "| no worries",
    "| no rush",
    "| no idea",
    "| no need",
    "| non merci",
    "| always-on",
];

/// Words that open a question that asks for information rather than correcting: a
/// question that starts with one is `k asks`.
pub(crate) const QUESTION_WORDS: &[&str] = &[
    "how",
    "what",
    "where",
    "which",
    "who",
    "when",
    "can",
    "could",
    "would",
    "is",
    "are",
    "does",
    "do",
    "should",
    "will",
    "comment",
    "quel",
    "quelle",
    "quels",
    "quelles",
    "ou",
    "est-ce",
    "peux-tu",
    "pouvez-vous",
    "qu'est-ce",
    "combien",
];
