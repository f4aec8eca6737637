"""Generate the labelled pair corpus for autofix's rule matcher (train + dev).

    python3 tests/scripts/pairs.py

writes tests/fixtures/pairs/train.tsv and dev.tsv: one pair per line, six tab-separated
columns LABEL TARGET RULES TEXT FORM LANG, rules joined by " ¦ " (the format is described
in src/docs/consistency.md). The frozen held-out set (heldout.tsv) was written separately,
by someone who saw neither this corpus nor the matcher, and is not made here.

How: DATA below holds 93 hand-written "concerns" (a topic with its rule in
English and/or French), and tests/scripts/pairs-data/*.txt 64 more in the same
format, by two other writers; each with hand-written phrasings marked
  "+" repeat, "!" reversal, "~" related (hard negative); a trailing "r"
  ("+r", "!r", "~r") marks FORM=rule, otherwise FORM=prompt;
lines after "[fr]" are French. UNRELATED holds ordinary requests and
corrections that no rule covers ("r:" = rule form).

Whole concerns are assigned to a split (one in five to dev, stratified by
language), as are unrelated texts, so dev measures wording never seen in
train. Every phrasing gives one pair (its rules file in the other language two times
in five, as a team types in either): its concern's rule placed at a random
position among 1-5 distractor rules drawn from the same split (60% of draws
from the same topic group so rules compete; pairs of concerns whose texts
would be ambiguous are never combined), and the text dressed as users type
it (as written, buried in a longer request, lower case without punctuation,
a small typo, a code span). Labels short of the target shares
(35/20/30/15) are topped up by reusing prompt-form phrasings of the same
split with a fresh dressing and rules file (about 3% of the pairs).
The output is validated (columns, labels vs targets, target range, no tabs/newlines in fields, no phrasing in both
splits) and counts per split, label, form and language are printed.

Deterministic: fixed seed, stdlib only. Run: python3 pairs.py
"""

DATA = r"""
## pnpm | pkg
en: Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.
fr: Toujours utiliser pnpm pour installer les paquets - parce que le lockfile est pnpm-lock.yaml.
+ you ran npm install again?? this repo is pnpm, I told you
+ the lockfile is pnpm-lock.yaml, so please don't generate a package-lock.json
+ `npm i` created a package-lock.json, delete it and redo the install with pnpm
+r Install dependencies with pnpm, never npm or yarn.
! let's move the repo to bun, use `bun install` from now on
!r Use npm for installing packages; we are dropping pnpm.
~ pin the pnpm version in the packageManager field of package.json
~ add a pnpm workspace for the new `packages/ui` folder
~r Run pnpm with --frozen-lockfile in CI.
[fr]
+ encore npm ?? on est sous pnpm ici, je te l'ai déjà dit
+ pourquoi il y a un package-lock.json dans le diff ? le lockfile c'est pnpm-lock.yaml
+r Installe les dépendances avec pnpm, pas avec npm.
! on passe à yarn à partir de maintenant, supprime pnpm-lock.yaml
!r Utiliser npm pour installer les paquets, pnpm c'est fini.
~ mets à jour pnpm en version 9 dans le champ packageManager
~ ajoute un script `pnpm lint` dans package.json
~r Toujours lancer pnpm install avec --frozen-lockfile en CI.
! laisse tomber pnpm, on installe avec npm comme tout le monde

## newdeps | pkg
en: Never add a new dependency without asking first - because every package has to go through license review.
fr: Ne jamais ajouter de dépendance sans demander avant - parce que chaque paquet passe par une revue de licence.
+ did you just add lodash? ask me before pulling in packages
+ check with me before you install anything new, legal has to review each lib
+ no new packages unless I say ok
+r Ask before adding any third-party library.
! you don't need to ask anymore for small deps, just add them if they help
!r Feel free to add dependencies without asking.
~ remove the unused `uuid` dependency from package.json
~ which of our deps have a GPL license? list them
~r Update dependencies once a month with Renovate.
[fr]
+ tu as encore ajouté un paquet sans me demander, je t'ai dit de demander avant
+ demande-moi avant d'installer une lib, la revue de licence est obligatoire
+r Pas de nouvelle dépendance sans mon accord.
! plus besoin de me demander pour les dépendances, ajoute ce qu'il faut
~ supprime la dépendance `moment` qui ne sert plus
~ fais la liste des licences de toutes nos dépendances
~r Mettre à jour les dépendances chaque lundi.
!r Ajouter librement les dépendances utiles, sans demander.

## pinversions | pkg
en: Pin exact dependency versions in package.json - because caret ranges broke the build twice.
+ no ^ in package.json please, exact versions
+ you wrote "react": "^18.2.0" - drop the caret
+ ranges have bitten us twice already, lock it to 4.17.21
+r Use exact versions, never caret or tilde ranges.
! caret ranges are fine again, let npm pick minor updates
!r Allow ^ ranges for dependencies.
~ bump react to 18.3 everywhere
~ add an overrides entry to force the patched version of semver
~r Run npm audit before every release.

## lockfile | pkg
en: Always commit the lockfile together with package.json changes - because CI installs from the lockfile.
fr: Toujours committer le lockfile avec les changements de package.json - parce que la CI installe depuis le lockfile.
+ you changed package.json but pnpm-lock.yaml isn't in the commit
+ CI will fail, the lock file has to go in the same commit as the manifest
+r Commit lockfile updates with dependency changes.
! stop committing the lockfile, add it to .gitignore
!r Don't commit lockfiles; CI resolves versions itself.
~ the lockfile has merge conflicts, regenerate it
~ why is the lockfile 40k lines? dedupe it
~r Review lockfile diffs for unexpected new packages.
[fr]
+ le pnpm-lock.yaml manque dans ton commit, encore
+ la CI installe depuis le lock, donc il doit partir avec package.json
+r Le fichier lock part toujours dans le même commit que package.json.
! on arrête de versionner le lockfile, mets-le dans le .gitignore
~ résous les conflits dans le lockfile après le merge
~ lance un dedupe sur le lockfile, il est énorme
!r Ne pas versionner le fichier lock.

## playwright | test
en: Always use Playwright for end-to-end tests - because the Cypress suite was abandoned.
fr: Toujours utiliser Playwright pour les tests end-to-end - parce que la suite Cypress a été abandonnée.
+ why is there a cypress folder in your diff? e2e is playwright
+ write the e2e for checkout with playwright like the others
+ we dropped cypress, so the login flow test goes in the playwright suite
+r End-to-end tests must be written with Playwright.
! let's move the e2e tests to Cypress from now on
!r Use Cypress for all new e2e tests.
~ run the Playwright tests headless in CI
~ add an end-to-end test for the password reset page
~ the playwright trace viewer won't open, can you look
~r Record a video for failing Playwright tests.
! drop playwright, we'll use webdriverio for e2e going forward
[fr]
+ pas de cypress, les tests e2e c'est playwright, je te l'ai déjà dit
+ écris le test de bout en bout du panier avec playwright comme les autres
+r Les tests E2E se font avec Playwright.
! on repasse sur cypress pour les e2e, c'est plus simple pour l'équipe
!r Utiliser Cypress pour les tests end-to-end.
~ lance les tests playwright en mode headless dans la CI
~ ajoute un test e2e pour la page d'inscription
~r Toujours garder les traces Playwright des tests en échec.

## vitest | test
en: Use Vitest for unit tests, not Jest - because Jest doesn't handle our ESM config.
fr: Utiliser Vitest pour les tests unitaires, pas Jest - parce que Jest ne gère pas notre config ESM.
+ you imported from '@jest/globals' again, it's vitest here
+ jest chokes on our esm setup, that's why we use vitest
+ please write the unit tests with vi.fn() not jest.fn()
+r Unit tests use Vitest.
! we're going back to jest for unit tests, migrate the vitest files
!r Use Jest for unit tests.
~ make vitest run in watch mode only for changed files
~ add a unit test for formatPrice
~r Keep unit test coverage above 80%.
[fr]
+ encore jest ? les tests unitaires c'est vitest chez nous
+ remplace les jest.fn() par vi.fn(), jest ne marche pas avec notre ESM
+r Écrire les tests unitaires avec Vitest.
! on abandonne vitest, on repasse tout sous jest
~ configure la couverture de code dans vitest
~ ajoute un test unitaire pour la fonction slugify
!r Utiliser Jest pour les tests unitaires.

## colocate | test
en: Put test files next to the code they test (foo.ts and foo.test.ts) - because the __tests__ folders got out of sync.
+ don't create a __tests__ dir, put the spec beside the file
+ the test for utils/date.ts should be utils/date.test.ts, same folder
+r Colocate tests with their source files.
! move all the tests into a top-level tests/ directory from now on
!r Keep tests in a separate __tests__ folder.
~ rename the .spec.ts files to .test.ts
~ add a test for the date utils
~r Name test files after the function they test.

## realdb | test
en: Never mock the database in integration tests - because the mocks hid a broken migration.
fr: Ne jamais mocker la base de données dans les tests d'intégration - parce que les mocks ont caché une migration cassée.
+ you mocked prisma in the integration test, use the real test db
+ integration tests hit a real postgres, no fakes
+ last time the mocked db hid a migration bug, so no
+r Integration tests run against a real database.
! mocking the db is fine in integration tests now, the container is too slow
!r Use an in-memory mock of the database in integration tests.
~ seed the test database with two users before each test
~ the integration tests leave rows behind, truncate tables after each run
~r Mock third-party HTTP APIs in integration tests.
[fr]
+ pas de mock de la base dans les tests d'intégration, je te l'ai dit
+ utilise la vraie base de test, les mocks nous ont déjà caché une migration pétée
+r Les tests d'intégration tapent sur une vraie base.
! tu peux mocker la db dans les tests d'intégration maintenant, c'est plus rapide
~ vide les tables entre chaque test d'intégration
~ ajoute un jeu de données de test avec trois commandes
!r Mocker la base de données dans les tests d'intégration.

## testsbeforecommit | test
en: Run the full test suite before every commit - because broken commits block the release train.
fr: Lancer toute la suite de tests avant chaque commit - parce qu'un commit cassé bloque la release.
+ did you run the tests before committing that? run them first
+ never commit without a green test run
+ again you committed with failing tests
+r Make sure all tests pass before committing.
! skip the tests before committing, CI runs them anyway
!r Commit without running the tests locally; CI handles it.
~ the tests take 10 minutes, can you parallelize them
~ add a pre-push hook that runs the linter
~r Run only the affected tests while iterating.
[fr]
+ tu as commité sans lancer les tests, encore
+ lance les tests avant de commit, toujours
+r Aucun commit sans tests au vert.
! plus besoin de lancer les tests avant de commit, la CI le fait
~ les tests sont trop lents, parallélise-les
~ ajoute un hook git qui lance le lint avant le push
!r Committer sans lancer les tests en local, la CI s'en charge.

## nosnapshot | test
en: Don't write snapshot tests - because nobody reviews snapshot diffs.
+ no toMatchSnapshot please, assert the actual values
+ snapshots just get updated blindly, write real assertions
+r Avoid snapshot testing; use explicit assertions.
! snapshot tests are ok for the email templates, use them there
!r Use snapshot tests for React components.
~ update the outdated snapshots in the Header test
~ the snapshot test fails on CI because of the timezone
~r Keep test fixtures under tests/fixtures.

## tabs | fmt
en: Use tabs for indentation.
fr: Indenter avec des tabulations.
+ you indented with spaces again
+ tabs not spaces
+ the file is mixing 4 spaces and tabs, fix it to tabs
+r Indent with tab characters.
! switch the codebase to 2-space indentation
!r Use spaces for indentation, never tabs.
~ set tab width to 4 in the editorconfig
~ the yaml files break with tabs, check them
~r Remove trailing whitespace on save.
[fr]
+ encore des espaces pour l'indentation, c'est des tabs ici
+ indente avec des tabulations, pas des espaces
+r Tabulations pour l'indentation.
! on passe à 2 espaces pour l'indentation partout
~ règle la largeur des tabulations à 4 dans l'editorconfig
~ supprime les espaces en fin de ligne
!r Indenter avec des espaces, jamais de tabulations.

## prettier | fmt
en: Format code with Prettier before committing - because formatting noise makes reviews unreadable.
fr: Formater le code avec Prettier avant de committer - parce que le bruit de formatage rend les reviews illisibles.
+ run prettier on what you changed, the diff is full of whitespace noise
+ format before you commit
+ the PR has formatting diffs all over, did you skip prettier?
+r Always run the formatter before committing.
! we're replacing prettier with biome, use `biome format` from now on
!r Use Biome instead of Prettier for formatting.
~ set printWidth to 100 in .prettierrc
~ prettier breaks our markdown tables, ignore docs/
~r Run ESLint with --fix in the pre-commit hook.
[fr]
+ passe prettier avant de commit, le diff est illisible
+ tu as oublié de formater, encore
+r Toujours formater avec Prettier avant un commit.
! on remplace prettier par biome, utilise biome format désormais
~ mets printWidth à 100 dans le .prettierrc
~ exclus le dossier docs/ de prettier
!r Formater avec Biome au lieu de Prettier.

## singlequotes | fmt
en: Use single quotes in JavaScript and TypeScript strings.
+ double quotes again
+ 'like this' not "like this"
+r Prefer single-quoted strings in TS.
! let's use double quotes everywhere, it matches the JSON
!r Use double quotes for strings.
~ use template literals when interpolating
~ escape the apostrophe in the error message
~r Use backticks for multi-line strings.

## linelength | fmt
en: Keep lines under 100 characters - because we review side by side.
fr: Garder les lignes sous 100 caractères - parce qu'on relit en côte à côte.
+ that line is 160 chars, wrap it
+ break long lines, we do side-by-side diffs
+r Wrap lines at 100 columns.
! the line limit is gone, long lines are fine
!r Lines can be as long as needed.
~ wrap the long SQL query across several lines
~ the commit message body should wrap at 72
~r Limit functions to 50 lines.
[fr]
+ ta ligne fait 150 caractères, coupe-la
+ on relit en side by side, donc pas de lignes à rallonge
+r Pas de ligne de plus de 100 colonnes.
! on enlève la limite de longueur de ligne
~ les messages de commit doivent être coupés à 72 colonnes
~ découpe cette requête SQL sur plusieurs lignes

## trailingcomma | fmt
en: Always use trailing commas in multi-line objects and arrays - because they keep diffs to one line.
+ add the trailing comma on the last item, diffs stay cleaner
+ missing trailing comma again
+r Put a comma after the last element of multi-line lists.
! remove trailing commas, the old IE build chokes on them
!r Never use trailing commas.
~ sort the object keys alphabetically
~ put each array item on its own line
~r Use trailing commas in function parameters too.
## convcommits | git
en: Write commit messages in Conventional Commits format (feat:, fix:, chore:) - because the changelog is generated from them.
fr: Écrire les messages de commit au format Conventional Commits (feat:, fix:, chore:) - parce que le changelog est généré à partir d'eux.
+ "updated stuff" is not a commit message, use feat:/fix: prefixes
+ the changelog generator skipped your commit because it had no type prefix
+ commit msg should be like `fix(auth): handle expired tokens`
+r Prefix every commit subject with its type, e.g. fix: or feat:.
! drop the conventional commit prefixes, just write plain sentences
!r Write commit messages as plain English sentences without type prefixes.
~ squash these five wip commits into one
~ add the ticket number to the PR title
~ reword the last commit, there's a typo in it
~r Write the commit body in the imperative mood.
[fr]
+ ton message de commit n'a pas de préfixe feat: ou fix:, le changelog va l'ignorer
+ respecte conventional commits stp
+ "modifs" c'est pas un message de commit, mets fix: ou feat:
+r Messages de commit au format feat:/fix:/chore:.
! on arrête conventional commits, des messages libres suffisent
~ ajoute le numéro du ticket dans le titre de la PR
~ fusionne ces trois commits wip en un seul
~r Écrire le corps du commit à l'impératif.
!r Messages de commit libres, sans préfixe de type.

## noforcepush | git
en: Never force-push to shared branches - because it wiped a teammate's commits once.
fr: Ne jamais faire de force push sur les branches partagées - parce que ça a déjà effacé les commits d'un collègue.
+ did you just push --force to develop?? don't
+ no force pushing on branches other people use
+ use --force-with-lease at most, and only on your own branch
+r Don't rewrite history on shared branches.
! you can force push to develop, I'll warn the team
!r Force-pushing to shared branches is allowed after a rebase.
~ delete the stale remote branches older than a month
~ push the hotfix branch and open a PR
~r Protect the main branch in GitHub settings.
[fr]
+ pas de push --force sur develop, tu as failli effacer le travail de Paul
+ ne réécris jamais l'historique d'une branche partagée
+r Jamais de git push -f sur une branche commune.
! tu peux force push sur develop, je préviens l'équipe
~ supprime les branches distantes mergées
~ pousse la branche du hotfix et ouvre une PR
! pour develop le force push est autorisé après un rebase

## rebase | git
en: Rebase feature branches onto main instead of merging main into them - because we want a linear history.
fr: Rebaser les branches sur main au lieu de merger main dedans - parce qu'on veut un historique linéaire.
+ you merged main into my branch, rebase it instead
+ no merge commits from main please, keep the history linear
+ git pull --rebase, not a plain pull
+r Update branches with git rebase, not git merge.
! stop rebasing, just merge main into the branch, rebasing loses review comments
!r Merge main into feature branches rather than rebasing.
~ resolve the rebase conflicts in api/routes.ts
~ interactive rebase to drop the debug commit
~r Delete feature branches after they are merged.
[fr]
+ rebase sur main au lieu de merger, on veut un historique propre
+ encore un commit de merge de main dans ta branche...
+r Toujours rebaser plutôt que merger main dans sa branche.
! on arrête les rebase, merge main dans ta branche c'est plus sûr
~ il y a des conflits pendant le rebase dans le fichier routes.ts
~ supprime la branche après le merge
!r Merger main dans les branches au lieu de rebaser.

## smallprs | git
en: Keep pull requests under 400 changed lines - because big PRs don't get reviewed properly.
+ this PR touches 2k lines, split it up
+ smaller PRs please, nobody can review this
+r Split large changes into several small pull requests.
! PR size doesn't matter anymore, do it in one PR
!r Put the whole feature in a single pull request.
~ write a description for this PR with screenshots
~ add reviewers from the payments team to the PR
~r Link the issue in every pull request description.

## nomain | git
en: Never commit directly to main - because main deploys to production automatically.
fr: Ne jamais committer directement sur main - parce que main est déployée en prod automatiquement.
+ you're on main, make a branch first
+ don't push commits straight to main, it auto-deploys
+ create a feature branch before committing, always
+r All changes go through a branch and a PR.
! for this repo you can commit straight to main, it's just docs
!r Commit small fixes directly to main.
~ create a release branch from main for 2.4
~ main is red, what broke it?
~r Tag releases on main with semver.
[fr]
+ tu es sur main là, crée une branche avant de commit
+ jamais de commit direct sur main, ça part en prod tout seul
+r Toujours passer par une branche, pas de commit sur main.
! tu peux committer direct sur main pour ce dépôt, c'est juste de la doc
~ crée une branche release/2.4 à partir de main
~ main est rouge depuis ce matin, regarde ce qui a cassé
!r Committer les petits correctifs directement sur main.

## branchnames | git
fr: Nommer les branches feature/<ticket>-<description> - parce que Jira les relie automatiquement aux tickets.
[fr]
+ ta branche s'appelle "test2", renomme-la en feature/PROJ-123-truc
+ mets le numéro du ticket dans le nom de branche, sinon jira ne la voit pas
+ le nom de branche doit commencer par feature/ suivi du ticket
+r Les branches suivent le format feature/TICKET-description.
! plus besoin du numéro de ticket dans les branches, nomme-les comme tu veux
!r Nommer les branches librement, sans préfixe.
~ supprime les branches feature déjà mergées
~ lie la PR au ticket jira PROJ-456
~r Les branches de hotfix partent de la dernière release.

## camelcase | naming
en: Use camelCase for variables and functions in TypeScript.
fr: Utiliser le camelCase pour les variables et les fonctions en TypeScript.
+ why is it user_name? this is TS, userName
+ no snake_case in the ts code
+r Name TS functions like getUserById, not get_user_by_id.
! use snake_case for variables so they match the API payloads
!r Use snake_case for variable names in TypeScript.
~ rename the `data` variable to something meaningful
~ constants should be UPPER_SNAKE_CASE
~r Use PascalCase for React components.
[fr]
+ pas de snake_case en TS, c'est du camelCase chez nous
+ renomme user_id en userId, je te l'ai déjà dit
+r Variables et fonctions en camelCase.
! passe les variables en snake_case pour coller au JSON de l'API
~ les constantes doivent être en MAJUSCULES_AVEC_UNDERSCORES
~ renomme la variable `tmp` en quelque chose de parlant
!r Nommer les variables en snake_case en TypeScript.

## kebabfiles | naming
en: Name files in kebab-case (user-profile.tsx) - because macOS and Linux disagree on case.
+ UserProfile.tsx should be user-profile.tsx
+ file names lowercase with dashes
+ the case-insensitive filesystem thing bit us again, use kebab case for files
+r Use lowercase hyphenated file names.
! name component files in PascalCase like the component, UserProfile.tsx
!r File names should match the exported component name in PascalCase.
~ move user-profile.tsx into components/profile/
~ rename the folder `Utils` to `lib`
~r Use index files only in package roots.

## noabbrev | naming
en: Don't abbreviate names (use `request`, not `req`; `config`, not `cfg`) - because new people can't read them.
fr: Ne pas abréger les noms (`request` et pas `req`, `config` et pas `cfg`) - parce que les nouveaux ne les comprennent pas.
+ what's `usrMgr`? write userManager
+ spell names out in full
+ cfg, ctx, req... please use whole words
+r Prefer full words over abbreviations in identifiers.
! short names like req, res, ctx are fine, the long ones are noise
!r Use short conventional abbreviations such as req and res.
~ rename `handleClick` to describe what it does
~ the function name getData is too vague
~r Prefix private fields with an underscore.
[fr]
+ c'est quoi `usrMgr` ? écris les noms en entier
+ pas d'abréviations dans les noms de variables, je te l'ai déjà dit
+r Noms complets, pas d'abréviations comme cfg ou req.
! les abréviations courtes genre req, res, ctx c'est ok maintenant
~ getData c'est trop vague comme nom de fonction
~ renomme handleClick pour dire ce qu'il fait

## boolprefix | naming
en: Prefix boolean variables with is, has or should.
+ `loading` → `isLoading`
+ booleans need is/has prefixes, `admin` is ambiguous
+r Name booleans like isVisible or hasAccess.
! drop the is/has prefixes on booleans, they're redundant with the types
!r Don't prefix boolean names.
~ replace the boolean parameter with an options object
~ the isOpen state should live in the parent
~r Avoid negated boolean names like isNotReady.

## nosilentcatch | errors
en: Never swallow errors with an empty catch block - because silent failures cost us a week of debugging.
fr: Ne jamais avaler les erreurs avec un catch vide - parce que les échecs silencieux nous ont coûté une semaine de debug.
+ `catch (e) {}` again? at least log it or rethrow
+ don't hide exceptions, we lost a week to that last time
+ if you catch it, handle it. no empty catches
+r Every catch block must log, rethrow or handle the error.
! it's fine to ignore errors from the analytics call, just catch and move on
!r Swallow errors in best-effort background tasks.
~ add a retry around the payment API call
~ show a toast when the save fails
~ wrap the JSON.parse in a try/catch
~r Use a global error boundary in the React app.
[fr]
+ un catch vide ? non, log l'erreur ou relance-la
+ on ne masque pas les erreurs, on a perdu une semaine la dernière fois
+r Pas de catch vide, jamais.
! pour les appels analytics tu peux ignorer les erreurs, un catch vide ça suffit
~ ajoute un retry sur l'appel à l'API de paiement
~ affiche un message quand l'enregistrement échoue
!r Ignorer silencieusement les erreurs des tâches non critiques.

## rustnounwrap | errors
en: Don't use unwrap() or expect() outside tests in Rust code - because a panic takes down the whole server.
fr: Pas de unwrap() ni expect() hors des tests en Rust - parce qu'un panic fait tomber tout le serveur.
+ there's an .unwrap() in the handler, propagate with ? instead
+ no panics in prod code, return a Result
+ you used expect("should work") in main.rs, that's a crash waiting to happen
+r Propagate errors with ? rather than unwrapping.
! unwrap is ok in this CLI, a panic message is good enough for us
!r Use expect() with a message instead of handling errors in the CLI.
~ add context to the errors with anyhow's .context()
~ the server panicked on an empty body, find where
~r Return a 400 with a clear message when the body is malformed.
[fr]
+ il reste un unwrap() dans le handler, remonte l'erreur avec ?
+ pas de panic en prod, renvoie un Result
+r Jamais de unwrap() dans le code hors tests.
! les unwrap sont acceptables dans la CLI, on s'en fiche d'un panic
~ ajoute du contexte aux erreurs avec anyhow
~ le serveur a paniqué sur un body vide, trouve pourquoi
!r Utiliser expect() avec un message plutôt que gérer les erreurs dans la CLI.

## errortypes | errors
en: Throw typed errors (subclasses of AppError), never plain strings - because the API maps error classes to status codes.
+ `throw "not found"` won't map to a 404, use NotFoundError
+ throwing strings again... use the AppError subclasses
+r Only throw instances of AppError subclasses.
! just throw new Error with a message, the error classes are overkill
!r Throw plain Error objects instead of custom error classes.
~ add a ConflictError for duplicate emails
~ the error middleware returns 500 for validation errors, fix it
~r Include an error code in every API error response.

## logger | logging
en: Use the shared logger instead of console.log - because console output isn't shipped to Datadog.
fr: Utiliser le logger commun au lieu de console.log - parce que la sortie console n'arrive pas dans Datadog.
+ console.log again?? use logger.info
+ nothing printed to the console reaches datadog, use our logger
+ please replace the console.error calls with the logger
+r Log through lib/logger, never console.*.
! just use console.log, we're moving to stdout collection anyway
!r Use console.log for logging.
~ lower the log level of the cache hits to debug
~ add a request id to every log line
~r Rotate log files daily.
[fr]
+ encore des console.log, passe par le logger
+ ce qui sort en console n'arrive pas dans datadog, utilise logger.info
+r Pas de console.log, utiliser le logger.
! tu peux utiliser console.log, on collecte stdout maintenant
~ passe les logs du cache en niveau debug
~ ajoute l'identifiant de requête dans chaque log
!r Logger avec console.log.

## nopii | logging
en: Never log personal data (emails, names, tokens) - because logs are kept for a year and GDPR applies.
fr: Ne jamais logger de données personnelles (emails, noms, tokens) - parce que les logs sont gardés un an et le RGPD s'applique.
+ you're logging the user's email in the signup handler, remove it
+ don't put tokens or emails in the logs, gdpr
+ log the user id, not the whole user object
+r Mask PII before it reaches the logs.
! logging emails is fine in the staging env, keep them there
!r Log the full request body for debugging.
~ add a log line when a signup fails
~ how long do we keep logs in Datadog?
~r Delete user data within 30 days of account deletion.
[fr]
+ tu logges l'email de l'utilisateur, enlève ça, RGPD
+ pas de données perso dans les logs, juste l'id
+r Aucune donnée personnelle dans les logs.
! en staging tu peux logger les emails, c'est pas grave
~ ajoute un log quand l'inscription échoue
~ combien de temps on garde les logs ?
!r Logger le body complet des requêtes pour débugger.

## structuredlogs | logging
en: Log in structured JSON with key-value fields, not interpolated strings - because we query logs by field.
+ `logger.info("user " + id + " logged in")` → `logger.info({ userId: id }, "login")`
+ pass fields as an object, we search logs by key
+r Use key-value fields in log calls instead of string interpolation.
! plain text log messages are fine, the JSON is unreadable locally
!r Log human-readable sentences rather than JSON.
~ pretty-print the logs in dev
~ add the tenant id field to the logger context
~r Log at warn level for retries.
## nosecrets | security
en: Never hardcode secrets or API keys in the code - because the repo is mirrored to contractors.
fr: Ne jamais mettre de secrets ou de clés d'API en dur dans le code - parce que le dépôt est partagé avec des prestataires.
+ you pasted the stripe key into config.ts, move it out
+ no credentials in source files, ever
+ contractors can read this repo, so the token can't live in the code
+r Read API keys from the environment, not from literals.
! for the demo just put the api key in the code, it's a test key
!r Hardcode sandbox keys directly in the config file.
~ rotate the stripe key, it leaked in a log
~ add a .env.example with the variables we need
~ the api key is expired, where do I get a new one?
~r Scan commits for secrets with gitleaks in CI.
[fr]
+ tu as collé la clé stripe dans le code, enlève-la
+ jamais de secret en dur, le dépôt est lu par les presta
+r Aucune clé d'API dans le code source.
! pour la démo tu peux mettre la clé en dur, c'est une clé de test
~ fais tourner la clé stripe, elle a fuité
~ ajoute un .env.example avec les variables nécessaires
~r Lancer gitleaks en CI pour détecter les secrets.
!r Mettre les clés sandbox directement dans le fichier de config.

## sqlparams | security
en: Always use parameterized queries - because string-built SQL got us an injection report.
fr: Toujours utiliser des requêtes paramétrées - parce que le SQL construit par concaténation nous a valu une faille d'injection.
+ you're concatenating user input into the SQL, use placeholders
+ `"WHERE id = " + id` no. bind parameters
+ template strings in queries again, that's how we got the injection bug
+r Pass values to SQL as bound parameters, never by string concatenation.
! raw string queries are ok for the admin reports, they're internal
!r Build SQL strings directly for internal reporting queries.
~ the report query is slow, add an index on created_at
~ write the query to count orders per month
~r Use read replicas for reporting queries.
[fr]
+ tu concatènes l'entrée utilisateur dans la requête, utilise des paramètres
+ pas de SQL construit à la main avec des template strings, on a déjà eu une injection
+r Requêtes SQL toujours paramétrées.
! pour les rapports internes tu peux concaténer, c'est pas exposé
~ la requête du rapport est lente, ajoute un index sur created_at
~ écris la requête qui compte les commandes par mois
!r Construire les requêtes SQL par concaténation pour les rapports internes.

## noeval | security
en: Never use eval or new Function - because CSP blocks them and they're an XSS risk.
+ eval() is blocked by our CSP, find another way
+ don't build functions from strings
+r Avoid eval and dynamic code execution.
! eval is fine for the formula editor, it's sandboxed now
!r Use new Function to evaluate user formulas.
~ tighten the Content-Security-Policy header
~ sanitize the HTML in the comment field
~r Escape user content before rendering it.

## i18n | i18n
en: Never hardcode user-facing strings - put them in the locale files and use t() - because the app ships in 6 languages.
fr: Ne jamais mettre de textes d'interface en dur - les mettre dans les fichiers de traduction et utiliser t() - parce que l'appli existe en 6 langues.
+ "Save changes" is hardcoded in the button, use t('settings.save')
+ all labels go through the translation files
+ you wrote the error message in plain english in the JSX, we ship 6 locales
+r Wrap every visible text in t() with a key in locales/.
! hardcoded english is fine for the admin panel, nobody translates it
!r Write UI text directly in the components.
~ add the German translation for the settings page
~ the French translation of "Cancel" is wrong
~ the translation keys are not sorted, sort en.json
~r Use ICU plural syntax in translation strings.
! just inline the english strings in the new settings screen, we're dropping i18n
[fr]
+ le libellé du bouton est en dur, passe par t()
+ tous les textes de l'UI vont dans les fichiers de traduction, on est en 6 langues
+ encore une chaîne en dur dans le JSX, je te l'ai déjà dit
+r Aucun texte d'interface en dur, tout passe par les fichiers de locale.
! pour l'admin tu peux mettre les textes en dur en français, personne ne traduit
!r Écrire les libellés directement dans les composants.
~ ajoute la traduction allemande de la page paramètres
~ la traduction de « Annuler » est fausse en espagnol
~r Utiliser la syntaxe ICU pour les pluriels.

## frtypo | i18n
fr: Mettre une espace insécable avant : ; ! ? dans les textes français - parce que c'est la typographie française et la relectrice le signale à chaque fois.
[fr]
+ il manque l'espace avant le point d'exclamation dans « Bienvenue! »
+ mets des espaces insécables avant les deux-points dans les libellés fr
+ encore « Erreur: » sans espace, je te l'ai dit
+r Espace insécable obligatoire avant les signes doubles en français.
! on supprime les espaces avant : et ?, c'est plus simple pour les traductions
!r Ne pas mettre d'espace avant la ponctuation double.
~ utilise les guillemets « » dans les textes français
~ corrige les fautes d'orthographe dans fr.json
~r Écrire les dates en toutes lettres dans les emails.

## vouvoiement | i18n
fr: Vouvoyer l'utilisateur dans tous les textes de l'interface - parce que c'est la charte éditoriale.
[fr]
+ « Tu as oublié ton mot de passe ? » -> on vouvoie l'utilisateur
+ pas de tutoiement dans l'appli
+ les messages d'erreur doivent dire vous, pas tu
+r Textes de l'UI au vouvoiement.
! on passe au tutoiement dans l'appli, c'est plus moderne
!r Tutoyer l'utilisateur dans l'interface.
~ rends le message d'erreur de connexion plus clair
~ raccourcis le texte du bouton d'inscription
~r Écrire les boutons à l'infinitif.

## utc | db
en: Store all timestamps in UTC - because our servers span three regions.
fr: Stocker toutes les dates en UTC - parce que nos serveurs sont répartis sur trois régions.
+ the created_at column is in Europe/Paris time, it should be UTC
+ never save local time in the db
+ use timestamptz and convert to utc before insert
+r Persist dates in UTC and convert only for display.
! store times in the user's local timezone from now on, the reports need it
!r Save timestamps in local time.
~ show the dates in the user's timezone on the invoice
~ the cron runs at the wrong hour after DST
~r Show relative times in the activity feed.
[fr]
+ la colonne created_at est en heure de Paris, elle doit être en UTC
+ jamais d'heure locale en base
+r Toutes les dates en base sont en UTC.
! on stocke désormais en heure locale, c'est ce que veulent les rapports
~ affiche les dates dans le fuseau de l'utilisateur sur la facture
~ le cron tourne à la mauvaise heure depuis le changement d'heure
!r Enregistrer les dates en heure locale.

## migrations | db
en: Never edit a migration that has been merged - write a new migration instead - because prod already ran it.
fr: Ne jamais modifier une migration déjà mergée - en écrire une nouvelle - parce que la prod l'a déjà jouée.
+ you changed 0042_add_users.sql, that one already ran in prod. new migration please
+ don't touch old migrations, add another one
+ merged migrations are immutable
+r Fix schema mistakes with a new migration, not by editing an old one.
! just edit the existing migration, we're resetting the db anyway
!r Amend old migrations when the schema changes.
~ add a migration that adds an index on orders.user_id
~ the migration fails on staging, look at the logs
~ squash the migrations before the 1.0 release
~r Make every migration reversible with a down step.
[fr]
+ tu as modifié une migration qui est déjà passée en prod, fais-en une nouvelle
+ on ne touche pas aux anciennes migrations
+r Une migration mergée ne se modifie plus.
! modifie directement la migration existante, on repart d'une base vide
~ ajoute une migration pour l'index sur orders.user_id
~ la migration plante en staging, regarde les logs
~r Chaque migration doit avoir un down.
!r Corriger directement les anciennes migrations quand le schéma change.

## noselectstar | db
en: Don't use SELECT * in application queries - because schema changes broke the mappers.
+ list the columns explicitly instead of select *
+ `SELECT *` in the repository layer again
+r Name every column in SQL queries.
! select * is fine, the ORM ignores extra columns now
!r Use SELECT * for simplicity.
~ add a LIMIT to the users query
~ the query returns duplicates, add DISTINCT
~r Alias columns in snake_case.

## softdelete | db
en: Soft-delete records with a deleted_at column instead of DELETE - because support restores accounts.
fr: Supprimer logiquement avec une colonne deleted_at au lieu de DELETE - parce que le support restaure des comptes.
+ don't hard delete the user row, set deleted_at
+ support needs to restore accounts, so no real deletes
+r Mark rows as deleted instead of removing them.
! hard delete the rows now, GDPR requires real deletion
!r Use DELETE to remove records permanently.
~ add a restore endpoint for deleted accounts
~ the list shows deleted projects, filter them out
~r Purge soft-deleted rows after 90 days.
[fr]
+ ne supprime pas vraiment la ligne, mets deleted_at
+ le support doit pouvoir restaurer les comptes, donc pas de DELETE
+r Suppression logique uniquement.
! on fait des vraies suppressions maintenant, le RGPD l'exige
~ ajoute un endpoint pour restaurer un compte supprimé
~ la liste affiche les projets supprimés, filtre-les

## money | db
en: Store money as integer cents, never floats - because floating point rounding broke invoices.
fr: Stocker les montants en centimes entiers, jamais en float - parce que les arrondis ont faussé des factures.
+ price is a float column?? use integer cents
+ 0.1 + 0.2 again... amounts in cents please
+ don't use Number for amounts, store 1999 not 19.99
+r Represent monetary amounts as integers in the smallest unit.
! use a decimal column for prices from now on, cents are confusing
!r Store prices as floating point euros.
~ format the price with the currency symbol
~ add VAT to the invoice total
~r Round tax amounts half-up.
[fr]
+ le prix est en float ? non, en centimes
+ les montants en entiers, les arrondis nous ont déjà planté des factures
+r Montants toujours en centimes entiers.
! passe les montants en decimal, les centimes c'est illisible
~ affiche le prix avec le symbole €
~ ajoute la TVA au total de la facture
!r Stocker les prix en float.

## ghactions | ci
en: Use GitHub Actions for CI, not Jenkins - because Jenkins is being decommissioned.
+ don't add a Jenkinsfile, the pipeline goes in .github/workflows
+ jenkins is going away, put the job in actions
+r New CI jobs go in GitHub Actions workflows.
! let's move the pipelines to GitLab CI
!r Use Jenkins for the deployment pipeline.
~ cache node_modules in the CI workflow
~ the actions run takes 20 min, speed it up
~r Run CI on pull requests only.

## cicache | ci
en: Cache dependencies in CI - because cold installs take eight minutes.
fr: Mettre les dépendances en cache dans la CI - parce qu'une installation à froid prend huit minutes.
+ the workflow reinstalls everything every run, add a cache step
+ use actions/cache for the pnpm store
+r Reuse the dependency cache between CI runs.
! remove the CI cache, it keeps serving stale packages
!r Always do a clean install in CI without caching.
~ split the CI job into lint, test and build
~ the CI runner is out of disk space
~r Run CI jobs in parallel.
[fr]
+ la CI réinstalle tout à chaque fois, ajoute un cache
+ mets le store pnpm en cache dans le workflow
+r Cache des dépendances obligatoire en CI.
! supprime le cache de la CI, il sert des paquets périmés
~ découpe le job CI en lint, test et build
~ le runner CI n'a plus de place disque

## noskipci | ci
en: Never skip or disable failing CI checks - fix them - because skipped checks let a broken release through.
fr: Ne jamais désactiver un check CI qui échoue - le corriger - parce qu'un check désactivé a laissé passer une release cassée.
+ you added `continue-on-error: true` to the lint job, no
+ don't mark the test as skip to make CI green, fix it
+ [skip ci] in the commit message again?
+r Fix red checks instead of disabling them.
! it's ok to skip the flaky e2e job for now, mark it optional
!r Mark flaky CI jobs as allowed to fail.
~ the e2e job is flaky, find out why
~ add a required status check for the build job
~r Retry flaky network steps up to three times.
[fr]
+ tu as mis le test en skip pour que la CI passe, non, corrige-le
+ pas de continue-on-error sur le job de lint
+r On répare les checks rouges, on ne les désactive pas.
! tu peux désactiver le job e2e instable pour l'instant
~ le job e2e est instable, trouve pourquoi
~ rends le job de build obligatoire sur les PR

## readmeenv | docs
en: Document every new environment variable in README.md and .env.example - because onboarding keeps breaking.
fr: Documenter chaque nouvelle variable d'environnement dans le README et .env.example - parce que l'onboarding casse à chaque fois.
+ you added REDIS_URL but it's not in the readme
+ new env var = update .env.example, I told you
+ the new hire couldn't start the app because SMTP_HOST wasn't documented
+r List every env var in .env.example with a comment.
! stop documenting env vars in the README, the config schema is the doc now
!r Keep environment variables out of the README.
~ add a troubleshooting section to the README
~ rename the env var DB_URL to DATABASE_URL
~r Validate environment variables at startup.
[fr]
+ tu as ajouté une variable d'env sans la documenter dans le README
+ nouvelle variable d'environnement = mise à jour du .env.example
+r Toute variable d'environnement est documentée dans .env.example.
! plus besoin de documenter les variables d'env, le schéma de config suffit
~ ajoute une section dépannage au README
~ renomme la variable DB_URL en DATABASE_URL

## jsdoc | docs
en: Add a JSDoc comment to every exported function - because the SDK docs are generated from them.
+ the new exported helpers have no doc comments
+ document the public functions, typedoc needs it
+r Exported functions need a /** */ comment.
! skip jsdoc, the types are documentation enough
!r Don't write doc comments on exported functions.
~ fix the broken links in the typedoc output
~ add a usage example to the README
~r Mark deprecated functions with @deprecated.

## changelog | docs
en: Add an entry to CHANGELOG.md for every user-visible change - because support reads it to answer tickets.
fr: Ajouter une entrée dans CHANGELOG.md pour chaque changement visible - parce que le support le lit pour répondre aux tickets.
+ you forgot the changelog line for the new export button
+ user-facing change -> changelog entry
+r Update CHANGELOG.md with each visible change.
! don't edit the changelog by hand anymore, release-please writes it
!r Let the release tool generate the changelog; never edit it.
~ fix the date of the 2.3 release in the changelog
~ write release notes for version 3.0
~r Group changelog entries by Added, Changed and Fixed.
[fr]
+ tu as oublié la ligne dans le changelog pour le bouton export
+ chaque changement visible doit être dans le CHANGELOG
+r Une entrée de changelog par changement visible.
! n'édite plus le changelog à la main, c'est généré à la release
~ rédige les notes de version de la 3.0
~ corrige la date de la version 2.3 dans le changelog

## docsenglish | docs
fr: Écrire les commentaires et la doc du code en anglais - parce que l'équipe de Lisbonne relit aussi.
[fr]
+ tes commentaires sont en français, l'équipe de Lisbonne ne les comprend pas
+ commentaires en anglais stp
+ la doc technique en anglais, je te l'ai déjà dit
+r Commentaires du code en anglais uniquement.
! tu peux écrire les commentaires en français, l'équipe de Lisbonne est partie
!r Rédiger la documentation du code en français.
~ traduis le README en anglais
~ ajoute des commentaires sur la fonction de calcul des remises
~r Les noms de variables doivent être en anglais.
## restplural | api
en: Use plural nouns for REST resources (/users, /orders) - because the public API guidelines say so.
fr: Utiliser des noms au pluriel pour les ressources REST (/users, /orders) - parce que c'est la règle de nos guidelines d'API.
+ the endpoint should be /invoices not /invoice
+ collections are plural in our routes
+r Name REST collections with plural nouns.
! use singular resource names from now on, /user/:id reads better
!r Use singular nouns in REST paths.
~ add pagination to GET /orders
~ the /users endpoint returns 500 when the email is missing
~r Use kebab-case in URL paths.
[fr]
+ la route doit être /factures au pluriel, pas /facture
+ les ressources REST sont au pluriel chez nous
+r Routes REST au pluriel.
! on passe les routes au singulier, /user/:id c'est plus lisible
~ ajoute la pagination sur GET /orders
~ l'endpoint /users renvoie une 500 quand l'email manque

## apiversion | api
en: Prefix every public API route with a version (/v1/...) - because mobile clients can't be force-upgraded.
+ the new route has no /v1 prefix
+ old app versions are still out there, version the endpoint
+r Public endpoints live under /v1, /v2 and so on.
! drop the /v1 prefix, we'll version with a header instead
!r Version the API with an Accept header rather than the URL.
~ add a deprecation header to the /v1/orders endpoint
~ write the OpenAPI spec for the v2 routes
~r Support each API version for 12 months.

## problemjson | api
en: Return API errors as RFC 7807 problem+json - because the clients parse that shape.
fr: Renvoyer les erreurs de l'API au format problem+json (RFC 7807) - parce que les clients parsent ce format.
+ the error is returned as plain text, the client expects problem json
+ errors need type, title, status, detail
+r Error responses use the application/problem+json format.
! return errors as { error: "message" }, problem+json is too heavy
!r Send errors as a simple JSON object with a message field.
~ return 422 instead of 400 for validation errors
~ the error response leaks the stack trace, remove it
~r Localize error messages on the server.
[fr]
+ l'erreur revient en texte brut, le client attend du problem+json
+ les erreurs de l'API doivent avoir type, title, status et detail
+r Format problem+json pour toutes les erreurs.
! renvoie juste { error: "..." }, problem+json c'est trop lourd
~ renvoie une 422 au lieu de 400 pour les erreurs de validation
~ la réponse d'erreur contient la stack trace, enlève-la

## noany | types
en: Never use `any` in TypeScript - use `unknown` and narrow it - because any hid three prod bugs.
fr: Ne jamais utiliser `any` en TypeScript - utiliser `unknown` puis affiner - parce que any a caché trois bugs en prod.
+ `as any` is not a fix
+ type the response properly instead of any
+ any again? use unknown and a type guard
+r Use unknown instead of any and narrow with guards.
! just use any for the legacy module, it's getting deleted
!r Allow any in test files and legacy code.
~ enable strictNullChecks in tsconfig
~ generate types from the OpenAPI spec
~ the build fails with TS2345, can you fix it
~r Prefer interfaces for public object shapes.
[fr]
+ pas de `any`, type la réponse correctement
+ encore un `as any` pour faire taire le compilateur...
+r Jamais de any, utiliser unknown.
! tu peux mettre any dans le vieux module, il va être supprimé
~ active strictNullChecks dans le tsconfig
~ génère les types à partir du schéma OpenAPI
!r Autoriser any dans les tests et le code legacy.

## zod | types
en: Validate all external input with zod schemas - because the API got malformed payloads from partners.
fr: Valider toutes les entrées externes avec des schémas zod - parce que l'API a reçu des payloads malformés de partenaires.
+ you trust req.body as-is, parse it with a schema
+ partner payloads are garbage sometimes, validate with zod
+r Parse request bodies with zod before using them.
! let's switch validation to valibot, it's smaller
!r Use yup for input validation.
~ infer the TS type from the zod schema
~ the zod error messages are ugly, format them
~r Validate forms on blur.
[fr]
+ tu utilises req.body tel quel, valide-le avec un schéma zod
+ les payloads des partenaires sont parfois pourris, donc validation zod
+r Toute entrée externe passe par un schéma zod.
! on passe à valibot pour la validation, zod est trop gros
~ déduis le type TS à partir du schéma zod
~ les messages d'erreur de zod sont moches, formate-les

## datefns | deps
en: Use date-fns for date handling, not moment - because moment is deprecated and heavy.
fr: Utiliser date-fns pour les dates, pas moment - parce que moment est déprécié et lourd.
+ you imported moment in the new component
+ moment is dead, use format from date-fns
+r Handle dates with date-fns.
! let's switch from date-fns to dayjs for everything
!r Use Luxon for date handling.
~ show relative dates like "3 days ago"
~ the date picker starts weeks on Sunday, should be Monday
~r Use ISO 8601 strings in the API.
[fr]
+ tu as importé moment, on utilise date-fns
+ pas de moment, il est déprécié
+r Manipuler les dates avec date-fns uniquement.
! on remplace date-fns par dayjs partout
~ affiche les dates relatives genre « il y a 3 jours »
~ le sélecteur de date commence le dimanche, ça doit être lundi
!r Utiliser Luxon pour manipuler les dates.

## nativefetch | deps
en: Use native fetch instead of axios - because we dropped axios to cut the bundle size.
+ why did you add axios back? fetch is fine
+ no axios, plain fetch
+ the bundle grew 30kb because of axios in your PR
+r Make HTTP calls with fetch, not axios.
! we're going back to axios, the interceptors are worth it
!r Use axios for HTTP requests.
~ add a timeout to the fetch calls
~ retry the fetch on 503
~r Use a single HTTP client wrapper for all API calls.

## nolodash | deps
en: Don't use lodash in new code - because native array methods cover it.
+ _.map? just use .map
+ we're removing lodash, don't add new imports of it
+r Prefer native JS methods over lodash.
! lodash is fine, use it when it's clearer
!r Use lodash utilities for collections.
~ debounce the search input
~ deep clone the config object
~r Use structuredClone for deep copies.

## components | layout
en: Put React components in src/components/<component-name>/ with their styles and tests - because that's where the storybook loader looks.
+ the new Modal went into src/ui, move it under src/components/Modal/
+ one folder per component in src/components
+r Each component lives in its own folder under src/components.
! put new components in src/features/<feature>/ next to the feature code instead
!r Group components by feature, not in src/components.
~ add a storybook story for the Modal
~ split the Modal component into Header and Body
~r Keep component files under 200 lines.

## nobarrel | layout
en: Don't create index.ts barrel files - because they cause circular imports and slow the build.
fr: Ne pas créer de fichiers barrel index.ts - parce qu'ils provoquent des imports circulaires et ralentissent le build.
+ you added an index.ts that re-exports everything, remove it
+ import from the file directly, no barrels
+ the circular import came back because of your barrel file
+r Import modules by their path, not through re-export indexes.
! add an index.ts to each folder so imports are shorter
!r Use barrel files to group exports.
~ fix the circular dependency between auth and user
~ set up path aliases like @/components
~r Sort imports alphabetically.
[fr]
+ tu as créé un index.ts qui réexporte tout, supprime-le
+ pas de fichiers barrel, importe directement depuis le fichier
+r Pas de index.ts de réexport.
! ajoute un index.ts dans chaque dossier pour raccourcir les imports
~ corrige la dépendance circulaire entre auth et user
~ configure les alias de chemin genre @/components

## scriptsdir | layout
en: Put one-off scripts in scripts/, never in the repo root - because the root is for config files only.
fr: Mettre les scripts ponctuels dans scripts/, jamais à la racine - parce que la racine est réservée aux fichiers de config.
+ don't drop migrate-users.js in the root, it goes in scripts/
+ the repo root is getting messy, move that script
+r Helper scripts belong in the scripts/ directory.
! put the scripts at the root so people find them
!r Keep scripts in the repository root.
~ make the backup script executable
~ add a scripts/seed.ts that fills the dev database
~r Write scripts in TypeScript, not bash.
[fr]
+ ne mets pas ton script à la racine, il va dans scripts/
+ la racine du dépôt c'est que pour la config
+r Les scripts vont dans scripts/.
! mets les scripts à la racine, on les trouvera plus facilement
~ rends le script de sauvegarde exécutable
~ ajoute un script de seed pour la base de dev

## pipefail | shell
en: Start every bash script with set -euo pipefail - because a failed step kept the deploy going.
fr: Commencer chaque script bash par set -euo pipefail - parce qu'une étape en échec n'a pas arrêté le déploiement.
+ the deploy script has no `set -e`, add the strict mode line
+ set -euo pipefail at the top, always
+ the script kept running after curl failed, that's exactly why we want strict mode
+r Shell scripts must exit on the first error.
! drop set -e from the scripts, we handle errors manually
!r Don't use set -e in shell scripts.
~ make the deploy script print each step
~ the script fails on macOS because of sed -i
~r Quote every variable expansion in bash.
[fr]
+ il manque set -euo pipefail en haut du script
+ le script a continué après l'échec de curl, mets le mode strict
+r Tout script bash commence par set -euo pipefail.
! enlève le set -e des scripts, on gère les erreurs à la main
~ le script plante sur macOS à cause de sed -i
~ affiche chaque étape dans le script de déploiement

## ripgrep | shell
en: Prefer ripgrep (rg) over grep in scripts - because grep -r is too slow on the monorepo.
fr: Préférer ripgrep (rg) à grep dans les scripts - parce que grep -r est trop lent sur le monorepo.
+ grep again? we use ripgrep in our scripts
+ use rg, grep -r takes forever here
+r Search with rg instead of grep -r.
! use plain grep in the scripts, rg isn't installed on the build boxes
!r Use grep in shell scripts for portability.
~ add a .ignore file so rg skips dist/
~ find all TODOs in the codebase
~r Use fd instead of find.
[fr]
+ encore grep ? on utilise rg dans nos scripts
+ grep -r est trop lent sur le monorepo, passe par ripgrep
+r Utiliser rg plutôt que grep.
! remets grep dans les scripts, rg n'est pas installé sur les machines de build
~ ajoute un fichier .ignore pour que rg saute dist/
~ trouve tous les TODO dans le code

## shellcheck | shell
en: Run shellcheck on every shell script change.
+ did you shellcheck that?
+ lint the .sh files before committing
+r Shell scripts must pass shellcheck.
! stop running shellcheck, it's too noisy on our scripts
!r Skip shellcheck for shell scripts.
~ rewrite the deploy script in python
~ the script doesn't handle spaces in file names
~r Use #!/usr/bin/env bash as the shebang.

## nolatest | docker
en: Never use the :latest tag in Dockerfiles - pin the image version - because latest broke a build overnight.
fr: Ne jamais utiliser le tag :latest dans les Dockerfile - épingler la version de l'image - parce que latest a cassé un build pendant la nuit.
+ FROM node:latest? pin it to node:20.11-alpine
+ no floating tags in docker images
+ the image changed under us last time, use a fixed version
+r Pin base images to an explicit version tag.
! just use latest for the base image, we want security updates automatically
!r Use the latest tag for base images.
~ make the docker image smaller
~ add a healthcheck to the Dockerfile
~r Use multi-stage builds.
[fr]
+ FROM node:latest ? non, fixe la version
+ pas de tag latest dans les Dockerfile, ça a déjà cassé un build
+r Images Docker toujours avec une version épinglée.
! prends latest pour l'image de base, on veut les mises à jour de sécu
~ réduis la taille de l'image docker
~ ajoute un healthcheck dans le Dockerfile
!r Utiliser le tag latest pour les images de base.

## nonroot | docker
en: Run containers as a non-root user - because the security audit flagged root containers.
+ the container runs as root, add a USER line
+ audit will flag this image again, don't run as root
+r Add a non-root USER to every Dockerfile.
! running as root is fine for the dev image
!r Run the dev container as root.
~ mount the source as a volume in docker-compose
~ the container can't write to /data, fix permissions
~r Drop all Linux capabilities in the pod spec.

## compose | docker
en: Use docker compose (v2) rather than docker-compose - because v1 is no longer installed on CI.
fr: Utiliser docker compose (v2) plutôt que docker-compose - parce que la v1 n'est plus installée en CI.
+ `docker-compose up` is v1, use `docker compose up`
+ the hyphenated command doesn't exist on CI anymore
+r Call docker compose without the hyphen.
! use podman compose instead of docker compose from now on
!r Run services with podman-compose.
~ add a redis service to docker-compose.yml
~ the compose stack takes two minutes to start
~r Name compose files compose.yaml.
[fr]
+ docker-compose avec un tiret c'est la v1, utilise docker compose
+ la commande avec tiret n'existe plus en CI
+r Utiliser docker compose, pas docker-compose.
! on passe à podman compose à la place de docker compose
~ ajoute un service redis dans le docker-compose.yml
~ la stack compose met deux minutes à démarrer
## nplusone | perf
en: Avoid N+1 queries - load relations with a join or include - because the orders page made 400 queries.
fr: Éviter les requêtes N+1 - charger les relations avec un join ou un include - parce que la page commandes faisait 400 requêtes.
+ you're querying the customer inside the loop, that's N+1
+ use include: { items: true } instead of fetching per row
+ the orders page did 400 queries last time, batch them
+r Fetch related records in one query, not one per item.
! lazy loading per item is fine here, the list never has more than 5 rows
!r Load relations lazily inside loops.
~ add caching to the orders endpoint
~ paginate the orders list
~r Add a database index for every foreign key.
[fr]
+ tu fais une requête par ligne dans la boucle, c'est du N+1
+ charge les relations avec un include au lieu de boucler
+r Pas de requête dans une boucle.
! ici tu peux charger à la demande dans la boucle, il n'y a jamais plus de 5 lignes
~ ajoute du cache sur l'endpoint des commandes
~ pagine la liste des commandes

## lazyimages | perf
en: Lazy-load images below the fold - because the landing page LCP was over 4 seconds.
+ add loading="lazy" on the gallery images
+ the landing page is slow again, images below the fold shouldn't load upfront
+r Use loading="lazy" for offscreen images.
! load all images eagerly, the lazy loading causes layout shift
!r Don't lazy-load images.
~ convert the hero image to webp
~ add width and height to the images
~r Serve images through the CDN.

## alttext | a11y
en: Give every image meaningful alt text - because we must meet WCAG AA.
fr: Donner un texte alternatif pertinent à chaque image - parce qu'on doit respecter le RGAA.
+ the <img> in the card has no alt
+ screen readers read "image123.png", describe the picture
+ alt="" is only for decorative images, this one needs a description
+r Every img needs a descriptive alt attribute.
! leave the alt empty on product photos, the title already describes them
!r Use empty alt attributes on product images.
~ increase the contrast of the grey text
~ add a skip-to-content link
~r Support keyboard navigation in the menu.
[fr]
+ l'image de la carte n'a pas d'alt
+ il faut un texte alternatif sur chaque image, RGAA oblige
+r Attribut alt obligatoire et descriptif sur les images.
! laisse l'alt vide sur les photos produit, le titre suffit
~ augmente le contraste du texte gris
~ ajoute un lien d'évitement vers le contenu
!r Laisser l'attribut alt vide sur les photos produit.

## buttons | a11y
en: Use <button> for clickable elements, never a div with onClick - because keyboard users can't reach divs.
fr: Utiliser <button> pour les éléments cliquables, jamais une div avec onClick - parce que les utilisateurs clavier ne peuvent pas les atteindre.
+ `<div onClick=...>` isn't focusable, make it a button
+ can't tab to your close icon, use a real button
+r Clickable things are buttons or links, not divs.
! div with role="button" is fine, the button styles are a pain
!r Use divs with click handlers for custom controls.
~ add a focus ring to the buttons
~ the close button has no aria-label
~r Disable the submit button while the form is sending.
[fr]
+ ta div avec onClick n'est pas focusable, mets un bouton
+ on ne peut pas atteindre l'icône au clavier, utilise un vrai <button>
+r Éléments cliquables = <button>, pas de div.
! une div avec role="button" ça suffit, les styles de bouton sont pénibles
~ ajoute un contour de focus sur les boutons
~ le bouton fermer n'a pas d'aria-label

## noDefaultExports | react
en: Never use default exports - because they make renames and grep unreliable.
fr: Ne jamais utiliser d'export par défaut - parce que ça rend les renommages et les recherches peu fiables.
+ named exports only, please
+ `export default function Header` -> export function Header
+ I said no default exports
+r Export everything by name.
! default exports are fine now, use them
!r Use a default export for each React component.
~ export the Props type from Header.tsx
~ remove the unused exports in utils.ts
~r Re-export public types from the package entry point.
[fr]
+ encore un export default, je t'ai dit des exports nommés
+ que des exports nommés stp
+r Pas d'export default.
! les exports par défaut sont ok maintenant, utilise-les
~ exporte le type Props depuis Header.tsx
~ supprime les exports inutilisés dans utils.ts
!r Un export default par composant React.

## functional | react
en: Write React components as function components with hooks, not classes.
+ why a class component? use a function and useState
+ no more `extends React.Component`
+r Use function components only.
! write the error boundary as a class, it has to be
!r Use class components for stateful widgets.
~ extract the fetching logic into a custom hook
~ the component re-renders on every keystroke
~r Use useReducer for complex state.

## tailwind | react
en: Style components with Tailwind classes, not CSS modules - because the design tokens live in the Tailwind config.
fr: Styler les composants avec Tailwind, pas avec des CSS modules - parce que les design tokens sont dans la config Tailwind.
+ you created Card.module.css, use tailwind classes
+ no new css files, the tokens are in tailwind.config
+r Use Tailwind utility classes for styling.
! let's move styling to CSS modules, the class lists are unreadable
!r Write styles in CSS modules.
~ add a dark mode variant to the card
~ the button color doesn't match the design
~r Extract repeated class lists into components.
[fr]
+ tu as créé un fichier .module.css, on utilise tailwind
+ pas de nouveau css, les tokens sont dans la config tailwind
+r Styles en classes Tailwind uniquement.
! on passe aux CSS modules, les listes de classes tailwind sont illisibles
~ ajoute le mode sombre sur la carte
~ la couleur du bouton ne correspond pas à la maquette

## uv | python
en: Use uv to manage Python dependencies, not pip - because uv.lock is the source of truth.
fr: Utiliser uv pour gérer les dépendances Python, pas pip - parce que uv.lock fait foi.
+ pip install? it's `uv add` in this repo
+ don't edit requirements.txt, uv.lock is what counts
+ run it with uv run pytest, not a bare python
+r Add Python packages with uv add.
! we're switching to poetry, convert the project
!r Manage Python dependencies with pip and requirements.txt.
~ upgrade the project to Python 3.12
~ create a virtualenv for the notebook
~r Pin the Python version in .python-version.
[fr]
+ pip install ? ici c'est uv add
+ ne touche pas au requirements.txt, c'est uv.lock qui fait foi
+r Dépendances Python gérées avec uv.
! on passe à poetry, convertis le projet
~ passe le projet en Python 3.12
~ crée un environnement virtuel pour le notebook
!r Gérer les dépendances Python avec pip et requirements.txt.

## typehints | python
en: Add type hints to all Python function signatures - because mypy runs in strict mode in CI.
fr: Mettre des annotations de type sur toutes les signatures de fonctions Python - parce que mypy tourne en mode strict en CI.
+ `def load(path):` needs types
+ mypy strict will fail, annotate the params and return type
+r Annotate every function's parameters and return value.
! no need for type hints in the scripts folder, mypy doesn't check it anymore
!r Skip type annotations in Python scripts.
~ fix the mypy error about Optional[str]
~ add a dataclass for the config
~r Use TypedDict for JSON payloads.
[fr]
+ `def load(path):` il manque les types
+ mypy strict va râler, annote les paramètres et le retour
+r Annotations de type sur toutes les fonctions.
! plus besoin d'annotations dans scripts/, mypy ne vérifie plus ce dossier
~ corrige l'erreur mypy sur Optional[str]
~ ajoute une dataclass pour la config

## pytest | python
en: Write Python tests with pytest, not unittest.
+ no unittest.TestCase classes, plain pytest functions
+ use fixtures instead of setUp
+r Tests are plain pytest functions.
! write the new tests with unittest so they run without extra deps
!r Use unittest for Python tests.
~ parametrize the date parsing test
~ the pytest run is slow, find the slow tests
~r Use tmp_path for temporary files in tests.

## ruff | python
en: Lint and format Python with ruff - because black and flake8 disagreed.
+ don't run black, ruff format does it
+ use ruff check, flake8 is gone
+r Format Python code with ruff format.
! put black back, ruff format diffs too much with our old code
!r Use black and flake8 for Python.
~ enable the isort rules in ruff
~ fix the ruff warnings in api/
~r Set the ruff line length to 100.

## clippy | rust
en: Make cargo clippy pass with -D warnings before committing Rust code.
fr: Faire passer cargo clippy avec -D warnings avant de committer du Rust.
+ clippy has 12 warnings on your branch
+ no warnings allowed, run clippy first
+r Rust code must be clippy-clean.
! ignore the clippy warnings, just make it compile
!r Allow clippy warnings in commits.
~ fix the borrow checker error in parser.rs
~ add #[must_use] to the builder methods
~r Run cargo fmt before committing.
[fr]
+ clippy a 12 warnings sur ta branche
+ zéro warning clippy avant de commit
+r Clippy doit passer sans warning.
! laisse tomber les warnings clippy, il faut juste que ça compile
~ corrige l'erreur du borrow checker dans parser.rs
~ ajoute #[must_use] sur les méthodes du builder

## anyhowthiserror | rust
en: Use thiserror for error types in library crates and anyhow only in the binary - because callers need to match on errors.
+ the lib crate returns anyhow::Result, make a proper error enum
+ callers can't match on anyhow errors, use thiserror in the library
+r Library crates define error enums with thiserror.
! use anyhow everywhere, the error enums are too much boilerplate
!r Return anyhow::Result from library functions.
~ add a variant for timeout errors
~ print the error chain in main
~r Implement Display for user-facing errors.
## nomarkdown | agent
en: Don't create new markdown files (summaries, notes) unless I ask - because they clutter the repo.
fr: Ne pas créer de nouveaux fichiers markdown (résumés, notes) sans que je le demande - parce qu'ils encombrent le dépôt.
+ why is there a SUMMARY.md now? I didn't ask for it
+ stop writing IMPLEMENTATION_NOTES.md files
+ no extra .md docs unless requested
+r Only create documentation files when explicitly asked.
! write a short markdown summary of each change in docs/changes/ from now on
!r Always add a NOTES.md describing what you did.
~ update the README with the new setup steps
~ fix the broken link in docs/setup.md
~r Keep docs in the docs/ folder.
[fr]
+ c'est quoi ce RESUME.md ? je ne t'ai rien demandé
+ arrête de créer des fichiers .md de notes
+r Pas de nouveau fichier markdown sans demande.
! à partir de maintenant écris un résumé markdown de chaque changement dans docs/changes/
~ mets à jour le README avec les nouvelles étapes d'installation
~ corrige le lien cassé dans docs/setup.md

## askdelete | agent
en: Ask before deleting any file - because you removed a fixture I needed.
fr: Demander avant de supprimer un fichier - parce que tu as supprimé une fixture dont j'avais besoin.
+ you deleted the old fixtures without asking!
+ check with me before rm-ing anything
+ don't remove files on your own, I lost data last time
+r Never delete files without confirmation.
! you can delete generated files without asking, just not source files
!r Delete unused files without asking.
~ remove the unused images in public/
~ clean up the tmp folder
~r Move obsolete code to an archive/ folder.
[fr]
+ tu as supprimé les fixtures sans demander !
+ demande-moi avant de supprimer quoi que ce soit
+r Jamais de suppression de fichier sans confirmation.
! tu peux supprimer les fichiers générés sans demander
~ supprime les images inutilisées dans public/
~ fais le ménage dans le dossier tmp
!r Supprimer les fichiers inutilisés sans demander.

## nodevserver | agent
en: Don't start the dev server yourself - I always have one running on port 3000.
fr: Ne lance pas le serveur de dev toi-même - j'en ai toujours un qui tourne sur le port 3000.
+ don't run npm run dev, mine is already up
+ port 3000 is taken because I'm running it, stop starting another one
+r Assume the dev server is already running.
! start the dev server yourself before testing, I won't be running one anymore
!r Start the dev server before each check.
~ the dev server crashes on hot reload
~ change the dev server port to 4000
~r Open the app in the browser after UI changes.
[fr]
+ ne lance pas le serveur de dev, le mien tourne déjà
+ arrête de démarrer un npm run dev, le port 3000 est pris par le mien
+r Ne jamais démarrer le serveur de dev.
! lance toi-même le serveur de dev avant de tester, je ne le ferai plus
~ le serveur de dev plante au rechargement à chaud
~ passe le serveur de dev sur le port 4000

## nocomments | agent
en: Don't add comments that restate what the code does - because they go stale.
+ `// increment i` is not a useful comment
+ remove the obvious comments you added everywhere
+ only comment the why, not the what
+r Comments explain intent, never narrate the code.
! comment every function in detail, the juniors need it
!r Add a comment above each line of non-trivial code.
~ add a comment explaining the retry backoff
~ fix the outdated comment in cache.ts
~r Write comments as full sentences.

## todoissue | agent
en: Every TODO comment must reference an issue number - because orphan TODOs never get done.
fr: Chaque commentaire TODO doit citer un numéro de ticket - parce que les TODO orphelins ne sont jamais traités.
+ `// TODO: fix later` - which issue?
+ add the ticket to your todos
+r Write TODOs as TODO(#123).
! plain TODOs are fine, we don't track them in issues anymore
!r Write TODO comments without issue references.
~ find and list all TODOs in src/
~ open an issue for the caching problem
~r Remove TODOs older than six months.
[fr]
+ `// TODO: à corriger` - quel ticket ?
+ mets le numéro du ticket dans tes TODO
+r Un TODO cite toujours son ticket.
! les TODO sans ticket c'est ok, on ne les suit plus
~ liste tous les TODO dans src/
~ ouvre un ticket pour le problème de cache

## generated | agent
en: Never edit files under src/generated/ by hand - regenerate them - because the codegen overwrites them.
fr: Ne jamais modifier à la main les fichiers de src/generated/ - les régénérer - parce que le codegen les écrase.
+ you patched src/generated/api.ts by hand, it'll be overwritten
+ run pnpm codegen instead of editing the generated client
+r Change the schema and regenerate; don't touch generated code.
! edit the generated client directly, we're dropping the codegen
!r Hand-edit generated files when the generator is wrong.
~ the codegen fails on the new schema
~ add src/generated to .prettierignore
~r Commit generated files to the repo.
[fr]
+ tu as modifié src/generated/api.ts à la main, ça sera écrasé
+ relance le codegen au lieu de toucher au client généré
+r Pas de modification manuelle dans src/generated.
! modifie directement le client généré, on abandonne le codegen
~ le codegen plante sur le nouveau schéma
~ ajoute src/generated au .prettierignore
!r Corriger à la main les fichiers générés quand le générateur se trompe.

## shortanswers | agent
en: Keep explanations short - show the diff, skip the essay.
+ too long, just tell me what changed
+ less prose, more code please
+r Answer with the change and one or two sentences at most.
! explain your reasoning in detail from now on, I want to learn
!r Give detailed explanations with every change.
~ explain how the auth middleware works
~ summarize the PR for the release notes
~r Write commit messages with a detailed body.

## makefile | agent
fr: Toujours passer par les cibles du Makefile (make test, make lint) - parce qu'elles chargent le bon environnement.
[fr]
+ lance `make test`, pas directement phpunit
+ passe par le Makefile, sinon les variables d'env ne sont pas chargées
+ tu as encore lancé la commande à la main au lieu de make lint
+r Utiliser make pour lancer tests et lint.
! oublie le Makefile, lance directement les commandes, on va le supprimer
!r Appeler les outils directement sans passer par make.
~ ajoute une cible make pour reset la base
~ le make build est super lent
~r Documenter chaque cible du Makefile.

## phpcsfixer | fmt
fr: Formater le PHP avec PHP CS Fixer (config .php-cs-fixer.php) - parce que la CI refuse le code mal formaté.
[fr]
+ passe php-cs-fixer sur tes fichiers, la CI va refuser
+ le formatage PHP n'est pas bon, lance le fixer
+r Toujours lancer PHP CS Fixer avant de pousser.
! on remplace php-cs-fixer par pint
!r Formater le PHP avec Laravel Pint.
~ ajoute la règle ordered_imports dans la config du fixer
~ phpstan trouve 30 erreurs au niveau 8
~r Monter PHPStan au niveau 9.

## messenger | api
fr: Utiliser Symfony Messenger pour les traitements asynchrones - parce que les crons maison ont perdu des messages.
[fr]
+ pas de cron maison pour envoyer les mails, passe par messenger
+ mets l'export en async avec un message et un handler messenger
+ encore une commande cron, on a perdu des messages avec ça
+r Tout traitement asynchrone passe par Symfony Messenger.
! pour l'export on peut faire un cron simple, messenger c'est trop lourd ici
!r Utiliser des commandes cron pour les tâches de fond.
~ configure un transport redis pour messenger
~ le worker messenger consomme trop de mémoire
~r Relancer automatiquement les messages en échec trois fois.

## datesfr | i18n
fr: Afficher les dates au format JJ/MM/AAAA dans l'interface - parce que nos clients sont en France.
[fr]
+ la date s'affiche en 2024-03-01, il faut 01/03/2024
+ format de date à la française dans l'UI stp
+ mets les dates en jour/mois/année, pas à l'américaine
+r Dates affichées en JJ/MM/AAAA.
! affiche les dates au format ISO partout, c'est plus clair pour les exports
!r Afficher les dates en AAAA-MM-JJ.
~ stocke la date de naissance sans l'heure
~ le calendrier doit commencer le lundi
~r Afficher les heures au format 24 h.

## commitfr | git
fr: Écrire les messages de commit en français - parce que toute l'équipe est francophone.
[fr]
+ tes messages de commit sont en anglais, on les écrit en français
+ commit en français stp
+r Messages de commit rédigés en français.
! à partir de maintenant les messages de commit en anglais, on ouvre le projet
!r Rédiger les messages de commit en anglais.
~ corrige la faute dans le dernier message de commit
~ regroupe tes commits avant le merge
~r Limiter le titre du commit à 50 caractères.

## revueobligatoire | git
fr: Ne jamais merger une PR sans au moins une approbation - parce qu'une PR non relue a cassé la prod.
[fr]
+ tu as mergé sans review, il faut une approbation
+ attends qu'un collègue valide la PR avant de merger
+ pas de merge sans relecture, on a déjà cassé la prod comme ça
+r Une approbation minimum avant tout merge.
! pour les PR de doc tu peux merger sans approbation
!r Merger soi-même les petites PR sans relecture.
~ ajoute Julie en relectrice sur la PR
~ réponds aux commentaires de la review
~r Utiliser le squash merge pour les PR.

## envvarsconfig | security
fr: Lire la configuration depuis les variables d'environnement, jamais depuis un fichier config.json commité - parce que la config diffère entre les environnements.
[fr]
+ tu as mis l'URL de la base dans config.json, passe par une variable d'env
+ la config doit venir de process.env, pas d'un fichier commité
+r Configuration via variables d'environnement uniquement.
! on revient à un fichier config.json par environnement, c'est plus lisible
!r Stocker la configuration dans des fichiers JSON versionnés.
~ ajoute une valeur par défaut pour PORT
~ l'appli ne démarre pas si REDIS_URL est vide, gère le cas
~r Valider la configuration au démarrage.
"""

UNRELATED = r"""
[en]
the modal doesn't close when I click outside it, can you fix that
add a "remember me" checkbox to the login form
why does the cart total show NaN when the cart is empty?
no, I meant the other dropdown, the one in the header
that's the wrong file, the bug is in cart.ts
make the sidebar collapsible
the search results should be sorted by relevance, not by date
add a dark overlay behind the image carousel
can you explain what this reduce call is doing
rename the "Projects" tab to "Workspaces" in the nav
the chart legend overlaps the bars on small screens
implement the forgot password email flow
the pagination buttons skip page 2
add a CSV export for the invoices table
the avatar upload fails for PNG files over 2MB
write a function that converts a hex color to rgb
make the table header sticky when scrolling
the toast disappears too fast, make it 5 seconds
undo that last change, the layout was better before
add a confirmation dialog before cancelling a subscription
the map doesn't center on the user's location
what's the difference between these two sorting functions?
extract the price calculation into its own function
the progress bar jumps back to 0 at 50%
support drag and drop reordering in the task list
the tooltip is cut off at the right edge
show the number of unread notifications in the bell icon
that fixed it, thanks. now do the same for the mobile menu
the filters reset when I go back to the list
compute the average rating and show it under the title
make the footer links open in the same tab
add a keyboard shortcut ctrl+k for the command palette
the count is off by one in the loop at line 42
the weekly report email goes out on Tuesday instead of Monday
add a "copy to clipboard" button next to the invite link
the onboarding wizard should skip step 3 for admins
implement infinite scroll on the feed
the PDF invoice is missing the customer address
no, keep the old behaviour for guests, only change it for logged-in users
the signup form accepts an empty name
add a max of 5 items per wishlist
the countdown timer shows negative numbers after it ends
move the logout button into the user menu
the chart should start the y axis at zero
can you make the cards the same height in the grid?
the discount code is applied twice
add an empty state illustration to the projects page
show a warning when the password is weaker than 8 characters
why is the list rendering twice? I only see one fetch
implement a simple LRU cache class with get and put
the image cropper rotates portrait photos sideways
add sorting by name to the members table
the webhook handler should ignore duplicate event ids
the slider thumb is hard to grab on mobile
make the welcome banner dismissible
you misread the ticket, the limit is per team, not per user
add a "last seen" column to the admin users list
write a regex that matches french postcodes
the graph animation stutters on Safari
can you add a loading skeleton to the dashboard cards?
the order status should go from paid to shipped, not straight to delivered
the zip download contains an empty folder
add a tab for archived conversations
split this long function into smaller ones
the invite expires after 24h, make it 7 days
convert this callback code to async/await
the dropdown should close after selecting an option
what does this error mean: Cannot read properties of undefined (reading 'map')
add a "duplicate project" action to the context menu
the stepper shows step 4 of 3
r:Prefer early returns over nested if blocks.
r:Cap the notification badge at 99+.
r:Keep the free plan limited to three projects.
r:Round ratings to one decimal place.
r:Put the primary action button on the right in dialogs.
r:Trial accounts expire after 14 days.
r:Limit functions to four parameters.
r:Show the onboarding checklist only to workspace owners.
r:Sort the members list by last name.
r:Auto-save drafts every 30 seconds.
r:Use the company's purple as the accent color.
[fr]
la modale ne se ferme pas quand je clique à côté, tu peux corriger ?
ajoute une case « se souvenir de moi » sur le formulaire de connexion
pourquoi le total du panier affiche NaN quand il est vide ?
non, je parlais de l'autre menu déroulant, celui du header
c'est pas le bon fichier, le bug est dans panier.ts
rends la barre latérale repliable
les résultats de recherche doivent être triés par pertinence
ajoute un export CSV pour le tableau des factures
l'upload d'avatar échoue pour les PNG de plus de 2 Mo
écris une fonction qui convertit une couleur hexa en rgb
rends l'en-tête du tableau collant au scroll
le toast disparaît trop vite, mets 5 secondes
annule ton dernier changement, la mise en page était mieux avant
ajoute une confirmation avant l'annulation de l'abonnement
la carte ne se centre pas sur la position de l'utilisateur
extrais le calcul du prix dans sa propre fonction
la barre de progression revient à 0 à 50 %
permets de réordonner les tâches par glisser-déposer
l'infobulle est coupée sur le bord droit
affiche le nombre de notifications non lues sur la cloche
ça marche, merci. fais pareil pour le menu mobile
les filtres se réinitialisent quand je reviens à la liste
calcule la note moyenne et affiche-la sous le titre
ajoute un raccourci ctrl+k pour la palette de commandes
il y a une erreur de un dans la boucle ligne 42
le mail de rapport hebdo part le mardi au lieu du lundi
ajoute un bouton « copier » à côté du lien d'invitation
l'assistant d'onboarding doit sauter l'étape 3 pour les admins
mets un scroll infini sur le fil d'actualité
il manque l'adresse du client sur la facture PDF
non, garde l'ancien comportement pour les invités
le formulaire d'inscription accepte un nom vide
maximum 5 articles par liste d'envies
le compte à rebours affiche des nombres négatifs à la fin
déplace le bouton de déconnexion dans le menu utilisateur
le graphique doit commencer l'axe des y à zéro
tu peux faire en sorte que les cartes aient la même hauteur ?
le code promo est appliqué deux fois
ajoute une illustration quand la liste des projets est vide
pourquoi la liste s'affiche deux fois ? je ne vois qu'un seul fetch
implémente un cache LRU simple avec get et put
ajoute le tri par nom dans le tableau des membres
le handler du webhook doit ignorer les événements en double
rends la bannière de bienvenue fermable
tu as mal lu le ticket, la limite est par équipe, pas par utilisateur
écris une regex qui valide les codes postaux français
ajoute un squelette de chargement sur les cartes du dashboard
le statut de la commande doit passer de payée à expédiée
découpe cette fonction trop longue
l'invitation expire après 24 h, mets 7 jours
convertis ce code à callbacks en async/await
le menu déroulant doit se fermer après la sélection
que veut dire cette erreur : Cannot read properties of undefined (reading 'map')
ajoute une action « dupliquer le projet » dans le menu contextuel
l'étape affiche 4 sur 3
r:Préférer les retours anticipés aux if imbriqués.
r:Afficher les prix TTC sur la boutique.
r:Limiter le badge de notifications à 99+.
r:Le plan gratuit est limité à trois projets.
r:Arrondir les notes à une décimale.
r:Les comptes d'essai expirent au bout de 14 jours.
r:Trier la liste des membres par nom de famille.
r:Sauvegarder les brouillons toutes les 30 secondes.
[en]
the back button on the checkout success page goes to the empty form
make the search box autofocus on page load
can you add a character counter under the bio textarea?
this is the wrong modal, I need the one for editing a team
the graph should show the last 30 days by default
hmm, the spacing between the cards is too big now
let users pin conversations to the top of the list
add a "mark all as read" action
the favicon doesn't show up
how do I get the current route name in this router?
the welcome email greets people by their last name, use the first name
why does the sidebar flicker when I navigate?
add a feature flag for the new editor
hide the beta badge for enterprise customers
the autocomplete suggests archived projects, exclude them
show the file size next to each attachment
the calendar should highlight today
the member invite form needs a role selector
the like counter goes negative if you unlike twice
add a setting to choose the default landing page
the share link should include the selected filters
you changed the wrong component, revert Card and change Tile instead
the upload should accept .heic photos too
make the onboarding video skippable
r:Show at most three avatars in a stack, then +N.
r:Keep the free trial banner visible until the user upgrades.
r:Guests can view boards but never edit them.
r:Truncate long project names with an ellipsis after two lines.
[fr]
le bouton retour de la page de confirmation renvoie vers le formulaire vide
mets le focus automatiquement sur le champ de recherche
ajoute un compteur de caractères sous la bio
c'est pas la bonne modale, il me faut celle d'édition d'équipe
le graphe doit afficher les 30 derniers jours par défaut
l'espacement entre les cartes est trop grand maintenant
permets d'épingler une conversation en haut de la liste
ajoute une action « tout marquer comme lu »
le favicon ne s'affiche pas
comment je récupère le nom de la route courante avec ce router ?
pourquoi la barre latérale clignote quand je navigue ?
ajoute un feature flag pour le nouvel éditeur
cache le badge bêta pour les clients entreprise
l'autocomplétion propose des projets archivés, exclus-les
affiche la taille du fichier à côté de chaque pièce jointe
le calendrier doit mettre aujourd'hui en évidence
le compteur de likes devient négatif si on enlève deux fois
tu as modifié le mauvais composant, annule sur Card et fais-le sur Tile
l'upload doit accepter les photos .heic
r:Afficher au maximum trois avatars empilés, puis +N.
r:Les invités peuvent voir les tableaux mais jamais les modifier.
r:Tronquer les noms de projet trop longs après deux lignes.
"""


# ---------------------------------------------------------------------------
# Everything below turns the hand-written data above into pairs.
# ---------------------------------------------------------------------------

import os
import random
import re
import sys
from collections import Counter

SEED = 20261201
SEP = " \u00a6 "
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "pairs")

# Concerns that must never sit in the same rules file: a text written for one
# would also repeat or reverse the other, so its label would be ambiguous.
INCOMPATIBLE = {
    frozenset(p) for p in [
        ("nosecrets", "envvarsconfig"), ("rustnounwrap", "anyhowthiserror"),
        ("nocomments", "jsdoc"), ("nomarkdown", "changelog"),
        ("newdeps", "nativefetch"), ("newdeps", "nolodash"), ("newdeps", "datefns"),
        ("testsbeforecommit", "clippy"), ("pnpm", "lockfile"),
        ("colocate", "components"),
    ]
}

# Unrelated texts whose words touch a topic group stay out of files holding
# that group, so "unrelated" really means no rule of the file is concerned.
UNREL_AVOID = [
    (r"fetch|cache", {"deps", "perf"}),
    (r"button|bouton|keyboard|clavier|raccourci|shortcut|slider", {"a11y"}),
    (r"price|prix|invoice|facture|cart|panier|discount|promo|csv", {"db"}),
    (r"tab\b|onglet|rename|renomme|label|libellé", {"i18n", "naming"}),
    (r"colou?r|couleur|dark|height|hauteur", {"react"}),
    (r"tuesday|mardi|expire|24 ?h|date|countdown|compte à rebours", {"db", "i18n"}),
    (r"email|mail", {"logging"}),
    (r"function|fonction|regex|async|callback", {"types", "naming"}),
    (r"password|mot de passe", {"security"}),
    (r"wrong (component|file)", {"agent"}),
]

FILLERS = {
    "en": {
        "pre": [
            "Ok, next thing.", "Thanks, that looks good.", "Quick one before I go.",
            "I'm working on the profile page today.", "The build is green now.",
            "Add a loading spinner to the profile page.",
            "The modal title should be bold.", "Good, the avatar upload works now.",
            "Let's keep going with the ticket.", "Nice. Two more things.",
            "I reviewed your last change.", "Pulling your branch now.",
            "Make the page header a bit smaller on mobile.",
            "The onboarding copy looks fine.",
        ],
        "join": ["Also, ", "And ", "btw ", "oh and ", "One more thing: ", "Also "],
        "post": [
            "Then show me the diff.", "Thanks!", "Keep the rest as is.",
            "After that, continue with the rest of the ticket.",
            "Then we can move on to the search page.", "Let me know when it's done.",
            "Don't change anything else.", "thx", "Then rerun what you ran before.",
        ],
    },
    "fr": {
        "pre": [
            "Ok, on continue.", "Merci, c'est bien.", "Petite chose avant de continuer.",
            "Je bosse sur la page profil aujourd'hui.", "Le build est vert maintenant.",
            "Ajoute un spinner de chargement sur la page profil.",
            "Le titre de la modale doit être en gras.", "Bon, l'upload d'avatar marche.",
            "On continue le ticket.", "Top. Deux autres trucs.",
            "J'ai relu ton dernier changement.", "Je récupère ta branche.",
            "Réduis un peu l'en-tête de la page sur mobile.",
        ],
        "join": ["Au fait, ", "Et ", "ah et ", "Autre chose : ", "Aussi, ", "par contre "],
        "post": [
            "Ensuite montre-moi le diff.", "Merci !", "Laisse le reste tel quel.",
            "Après ça, continue le ticket.", "Puis on passe à la page de recherche.",
            "Dis-moi quand c'est fait.", "Ne change rien d'autre.", "merci",
        ],
    },
}

CODE_TOKEN = re.compile(
    r"(?<![`\w])(package\.json|pnpm-lock\.yaml|tsconfig|\.env\.example|README\.md|"
    r"CHANGELOG\.md|Dockerfile|docker-compose\.yml|console\.log|logger\.info|"
    r"npm install|npm i|pnpm|grep -r|set -e|select \*|SELECT \*|unwrap\(\)|"
    r"jest\.fn\(\)|any|req\.body|index\.ts|[\w/-]+\.(?:ts|tsx|js|py|rs|sql|md|css|yml|yaml))"
    r"(?![`\w])"
)


def parse(data):
    """Parse the concern blocks into dicts."""
    concerns, cur, lang = [], None, None
    for raw in data.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#") and not line.startswith("## "):
            continue
        if line.startswith("## "):
            cid, group = [x.strip() for x in line[3:].split("|")]
            cur = {"id": cid, "group": group, "rule": {}, "phr": {"en": [], "fr": []}}
            concerns.append(cur)
            lang = "en"
            continue
        if line in ("[fr]", "[en]"):
            lang = line[1:3]
            continue
        m = re.match(r"^(en|fr): (.+)$", line)
        if m:
            cur["rule"][m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([+!~])(r?) (.+)$", line)
        if not m:
            sys.exit("cannot parse line: %r" % line)
        label = {"+": "repeat", "!": "reversal", "~": "related"}[m.group(1)]
        form = "rule" if m.group(2) else "prompt"
        cur["phr"][lang].append((label, form, m.group(3)))
    return concerns


def parse_unrelated(data):
    out, lang = [], None
    for line in data.splitlines():
        line = line.strip()
        if not line:
            continue
        if line in ("[en]", "[fr]"):
            lang = line[1:3]
            continue
        form = "prompt"
        if line.startswith("r:"):
            form, line = "rule", line[2:]
        out.append((lang, form, line))
    return out


def split_concerns(concerns, rng):
    """One concern in five goes to dev, stratified by which languages it has."""
    dev = set()
    for kind in ("fr", "en", "both"):
        ids = sorted(
            c["id"] for c in concerns
            if (("both" if len(c["rule"]) == 2 else list(c["rule"])[0]) == kind)
        )
        rng.shuffle(ids)
        dev.update(ids[i] for i in range(len(ids)) if i % 5 == 2)
    return dev


def typo(text, rng):
    """One small typo in one word outside backticks."""
    parts = re.split(r"(`[^`]*`)", text)
    spots = [
        (i, m) for i, p in enumerate(parts) if not p.startswith("`")
        for m in re.finditer(r"[A-Za-zàâçéèêëîïôûù]{5,}", p)
    ]
    if not spots:
        return text
    i, m = rng.choice(spots)
    w = m.group(0)
    k = rng.randrange(1, len(w) - 2)
    op = rng.choice(["swap", "drop", "double"])
    if op == "swap":
        nw = w[:k] + w[k + 1] + w[k] + w[k + 2:]
    elif op == "drop":
        nw = w[:k] + w[k + 1:]
    else:
        nw = w[:k] + w[k] + w[k:]
    parts[i] = parts[i][:m.start()] + nw + parts[i][m.end():]
    return "".join(parts)


def lower_nopunct(text):
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for p in parts:
        if p.startswith("`"):
            out.append(p)
        else:
            p = p.lower()
            p = re.sub(r"[.,;:!?]+(?=\s|$)", "", p)
            p = p.replace("« ", "").replace(" »", "")
            out.append(p)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def codespan(text):
    if "`" in text:
        return text
    m = CODE_TOKEN.search(text)
    if not m:
        return None
    return text[:m.start()] + "`" + m.group(0) + "`" + text[m.end():]


def bury(text, lang, rng):
    f = FILLERS[lang]
    body = text[0].lower() + text[1:] if text[:1].isupper() and not text[:2].isupper() else text
    shape = rng.choice(["pre", "pre", "post", "both", "both"])
    if shape != "pre" and not re.search(r"[.!?)`]$", body):
        body += "." if rng.random() < 0.8 else " -"
        text = body if shape == "post" else text
        if shape == "post" and text[:1].islower() and rng.random() < 0.5:
            text = text[0].upper() + text[1:]
    out = []
    if shape in ("pre", "both"):
        out.append(rng.choice(f["pre"]))
        if rng.random() < 0.35:
            extra = rng.choice(f["pre"])
            if extra != out[0]:
                out.append(extra)
        out.append(rng.choice(f["join"]) + body)
    else:
        out.append(text)
    if shape in ("post", "both"):
        out.append(rng.choice(f["post"]))
    return " ".join(out)


def dress(text, form, lang, rng):
    """Return (dressed text, style) the way a user would type it."""
    if form == "rule":
        r = rng.random()
        if r < 0.12:
            return text.rstrip("."), "rule-noperiod"
        if r < 0.18:
            return lower_nopunct(text), "rule-lower"
        return text, "asis"
    r = rng.random()
    if r < 0.30:
        return text, "asis"
    if r < 0.58:
        t = bury(text, lang, rng)
        if rng.random() < 0.2:
            t = typo(t, rng)
        return t, "buried"
    if r < 0.73:
        return lower_nopunct(text), "lower"
    if r < 0.88:
        return typo(text, rng), "typo"
    t = codespan(text)
    if t is None:
        return typo(lower_nopunct(text), rng), "lower-typo"
    return t, "code"


def pick_rules(target, pool, lang_pref, rng):
    """Build a rules file: the target concern (if any) among distractors.

    With a target: 1-5 distractors, 60% of draws from the target's own topic
    group so that rules compete. Without one (unrelated pairs): 1-6 rules.
    """
    if target is not None:
        total = 1 + rng.choices([1, 2, 3, 4, 5], weights=[14, 24, 26, 20, 16])[0]
        chosen = [target]
        group = target["group"]
    else:
        total = rng.choices([1, 2, 3, 4, 5, 6], weights=[8, 18, 24, 22, 16, 12])[0]
        chosen = []
        group = rng.choice(sorted({c["group"] for c in pool}))
    for _ in range(500):
        if len(chosen) >= total:
            break
        same = [c for c in pool if c["group"] == group]
        c = rng.choice(same if (same and rng.random() < 0.6) else pool)
        if c in chosen:
            continue
        if any(frozenset((c["id"], o["id"])) in INCOMPATIBLE for o in chosen):
            continue
        if lang_pref not in c["rule"] and rng.random() < 0.8:
            continue  # mostly one language per file; some files are mixed
        chosen.append(c)
    rng.shuffle(chosen)
    texts = [c["rule"][lang_pref if lang_pref in c["rule"] else list(c["rule"])[0]]
             for c in chosen]
    pos = chosen.index(target) + 1 if target is not None else None
    return texts, pos


# The share of texts whose rules file is in the other language.
CROSS_LINGUAL = 0.4


def file_lang(concern, text_lang, rng):
    """Language of the rules file: a team writes its rules in one language and types in
    either, so a text meets a file in the other language two times in five."""
    langs = list(concern["rule"])
    if text_lang in langs and (len(langs) == 1 or rng.random() >= CROSS_LINGUAL):
        return text_lang
    others = [l for l in langs if l != text_lang]
    return others[0] if others else langs[0]


def concern_pair(c, pool, lang, label, form, text, rng):
    rules, pos = pick_rules(c, pool, file_lang(c, lang, rng), rng)
    t, _style = dress(text, form, lang, rng)
    tgt = str(pos) if label in ("repeat", "reversal") else "-"
    return (label, tgt, SEP.join(rules), t, form, lang)


def unrelated_pair(lang, form, text, pool, rng):
    avoid = set()
    for pat, groups in UNREL_AVOID:
        if re.search(pat, text, re.I):
            avoid |= groups
    ok = [c for c in pool if c["group"] not in avoid]
    rules, _ = pick_rules(None, ok, lang, rng)
    t, _style = dress(text, form, lang, rng)
    return ("unrelated", "-", SEP.join(rules), t, form, lang)


# Share of each label in the output; extra uses of a phrasing (with another
# dressing and another rules file) top up labels that fall short.
TARGET_SHARE = {"repeat": 0.35, "reversal": 0.20, "related": 0.30, "unrelated": 0.15}


def build(pool, unrelated, rng):
    """Every phrasing once, then top up the labels below their share."""
    items = []  # (label, maker) - maker builds one pair from one phrasing
    for c in pool:
        for lang in ("en", "fr"):
            for label, form, text in c["phr"][lang]:
                items.append((label, lang, (c, lang, label, form, text)))
    for lang, form, text in unrelated:
        items.append(("unrelated", lang, (lang, form, text)))

    def make(label, args):
        if label == "unrelated":
            return unrelated_pair(*args, pool, rng)
        c, lang, lab, form, text = args
        return concern_pair(c, pool, lang, lab, form, text, rng)

    rows = [make(label, args) for label, _lang, args in items]
    base = Counter(label for label, _l, _a in items)
    # the label with the largest count/share ratio fixes the total
    total = max(base[l] / s for l, s in TARGET_SHARE.items())
    for label, share in TARGET_SHARE.items():
        want = int(round(total * share))
        # reuse prompt-form phrasings only: a rule is written once, a prompt retyped
        cands = [(lab, args) for lab, _l, args in items
                 if lab == label and args[-2] == "prompt"]
        rng.shuffle(cands)
        k = 0
        while base[label] < want and cands:
            lab, args = cands[k % len(cands)]
            rows.append(make(lab, args))
            base[label] += 1
            k += 1
    rows.extend(absent_pairs(pool, rng))
    rng.shuffle(rows)
    return rows


# The share of repeat phrasings that also meet a file without their rule but with others of
# its topic: a new rule of a topic the file covers, the hardest of the related pairs.
ABSENT_SHARE = 0.5


def absent_pairs(pool, rng):
    """Repeats of a concern typed to a file that holds other rules of its group, not its own:
    related pairs (the same topic, another rule), added beside the label shares."""
    out = []
    for c in pool:
        siblings = [o for o in pool if o["group"] == c["group"] and o is not c
                    and frozenset((c["id"], o["id"])) not in INCOMPATIBLE]
        if not siblings:
            continue
        others = [o for o in pool if o is not c
                  and frozenset((c["id"], o["id"])) not in INCOMPATIBLE]
        for lang in ("en", "fr"):
            for label, form, text in c["phr"][lang]:
                if label != "repeat" or rng.random() >= ABSENT_SHARE:
                    continue
                rules, _ = pick_rules(rng.choice(siblings), others, file_lang(c, lang, rng), rng)
                t, _style = dress(text, form, lang, rng)
                out.append(("related", "-", SEP.join(rules), t, form, lang))
    return out


def validate(rows, name):
    seen = set()
    for i, r in enumerate(rows):
        where = "%s row %d" % (name, i + 1)
        assert len(r) == 6, where
        label, tgt, rules, text, form, lang = r
        for f in r:
            assert "\t" not in f and "\n" not in f and "\r" not in f, where
            assert f.strip() == f and f, where
        assert label in TARGET_SHARE, where
        assert form in ("prompt", "rule") and lang in ("en", "fr"), where
        n = len(rules.split(SEP))
        assert 1 <= n <= 6, where
        assert all(x.strip() for x in rules.split(SEP)), where
        assert "\u00a6" not in text, where
        if label in ("repeat", "reversal"):
            assert tgt.isdigit() and 1 <= int(tgt) <= n, where
        else:
            assert tgt == "-", where
        seen.add(r)
    return len(rows) - len(seen)


def content_words(s):
    stop = set("""a an the to of in on for and or not no is are be it this that with by as
        at from we our you your us i me my do don't dont never always use using please
        just so if le la les un une des de du et ou pas ne en au aux pour par sur dans
        est sont ce ça ca tu te on nous je me mon ma mes ton ta tes plus jamais toujours
        because parce que qui avec sans""".split())
    words = re.findall(r"[a-zàâçéèêëîïôûù0-9]+", s.lower())
    return {w[:5] for w in words if w not in stop and len(w) > 1}


def hard_share(rows, all_concerns):
    """Share of repeats sharing at most one content word (5-letter stems) with the rule."""
    hard = total = 0
    for label, tgt, rules, text, form, lang in rows:
        if label != "repeat":
            continue
        rule = rules.split(SEP)[int(tgt) - 1]
        total += 1
        if len(content_words(rule) & content_words(text)) <= 1:
            hard += 1
    return hard, total


def write(rows, path, header):
    with open(path, "w", encoding="utf-8") as f:
        f.write(header)
        for r in rows:
            f.write("\t".join(r) + "\n")


def extra_data():
    """The concerns of tests/scripts/pairs-data/*.txt (the format of DATA), in name order,
    and the pairs of concern ids their "#! incompatible: a b" lines name."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pairs-data")
    texts = []
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".txt"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    texts.append(f.read())
    data = "\n".join(texts)
    pairs = set()
    for line in data.splitlines():
        if line.startswith("#! incompatible:"):
            a, b = line.split(":", 1)[1].split()
            pairs.add(frozenset((a, b)))
    return data, pairs


def main():
    rng = random.Random(SEED)
    data, incompatible = extra_data()
    INCOMPATIBLE.update(incompatible)
    concerns = parse(DATA + "\n" + data)
    ids = [c["id"] for c in concerns]
    assert len(ids) == len(set(ids)), "duplicate concern id"
    dev_ids = split_concerns(concerns, rng)
    unrel = parse_unrelated(UNRELATED)
    rng_u = random.Random(SEED + 1)
    order = list(range(len(unrel)))
    rng_u.shuffle(order)
    dev_unrel = {order[i] for i in range(len(order)) if i % 5 == 2}
    out = {}
    for split in ("train", "dev"):
        pool = [c for c in concerns if (c["id"] in dev_ids) == (split == "dev")]
        un = [u for i, u in enumerate(unrel) if (i in dev_unrel) == (split == "dev")]
        rows = build(pool, un, random.Random("%s-%s" % (SEED, split)))
        out[split] = (rows, pool, un)
    # no hand-written phrasing (rule, repeat, ... or unrelated text) in both splits
    def phrasings(pool, un):
        s = {t for c in pool for l in c["phr"].values() for _a, _b, t in l}
        s |= {r for c in pool for r in c["rule"].values()}
        return s | {t for _l, _f, t in un}
    leak = phrasings(*out["train"][1:]) & phrasings(*out["dev"][1:])
    assert not leak, "phrasing in both splits: %r" % sorted(leak)[:5]
    for split, (rows, pool, un) in out.items():
        dups = validate(rows, split)
        header = ("# autofix rule-matcher pairs, %s split, written by pairs.py (seed %d).\n"
                  "# LABEL\tTARGET\tRULES\tTEXT\tFORM\tLANG - see src/docs/consistency.md\n"
                  % (split, SEED))
        write(rows, os.path.join(HERE, split + ".tsv"), header)
        hard, nrep = hard_share(rows, concerns)
        print("%s: %d pairs from %d concerns + %d unrelated texts (%d exact duplicate rows)"
              % (split, len(rows), len(pool), len(un), dups))
        for col, idx in (("label", 0), ("form", 4), ("lang", 5)):
            cnt = Counter(r[idx] for r in rows)
            print("  %-6s %s" % (col, "  ".join("%s=%d (%.0f%%)" % (k, v, 100.0 * v / len(rows))
                                                 for k, v in sorted(cnt.items()))))
        nrules = Counter(len(r[2].split(SEP)) for r in rows)
        print("  rules/file %s" % dict(sorted(nrules.items())))
        print("  hard repeats (<=1 shared content stem with the rule): %d/%d (%.0f%%)"
              % (hard, nrep, 100.0 * hard / max(nrep, 1)))
    print("dev concerns: %s" % ", ".join(sorted(dev_ids)))


if __name__ == "__main__":
    main()
