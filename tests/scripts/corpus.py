#!/usr/bin/env python3
"""Writes the classifier's training and development prompts (English and French).

    python3 tests/scripts/corpus.py

writes tests/fixtures/prompts-{train,dev}-{en,fr}.tsv
(LABEL<TAB>PROMPT, label `correction` or `other`). Deterministic: the same run writes the
same files. Every phrasing (template) goes to one file only, one in five to the
development set, so the development figures measure phrasings the model never saw. The
frozen held-out sets (prompts-heldout-*.tsv) were written separately and are not made
here.
"""

import random
import re
from pathlib import Path

RNG = random.Random(25)
HERE = Path(__file__).resolve().parent.parent / "fixtures"

# --- slots -------------------------------------------------------------------------------

EN = {
    "tool": [("pnpm", "npm"), ("fetch", "axios"), ("date-fns", "moment"), ("pytest", "unittest"),
             ("ruff", "flake8"), ("vitest", "jest"), ("poetry", "pip"), ("tabs", "spaces"),
             ("named exports", "default exports"), ("const", "let"), ("async/await", "callbacks"),
             ("the logger", "print statements"), ("anyhow", "Box<dyn Error>"), ("sqlx", "diesel"),
             ("yarn", "npm"), ("zod", "yup"), ("httpx", "requests"), ("black", "autopep8"),
             ("tokio", "async-std"), ("TypeScript", "plain JavaScript"), ("Tailwind", "inline styles"),
             ("the query builder", "raw SQL"), ("make", "the shell scripts"), ("podman", "docker"),
             ("f-strings", "format()"), ("pathlib", "os.path"), ("early returns", "nested ifs"),
             ("composition", "inheritance"), ("small commits", "one big commit"),
             ("snake_case", "camelCase"), ("kebab-case file names", "PascalCase file names"),
             ("UTC timestamps", "local times"), ("integers for money", "floats for money"),
             ("the repository pattern", "direct SQL in handlers"), ("structs", "tuples")],
    "never": ["commit .env files", "push to main directly", "edit the generated files",
              "reformat files you didn't touch", "use unwrap in library code",
              "add dependencies without asking", "delete migrations", "disable the linter",
              "skip the tests", "hardcode URLs", "use any in TypeScript", "log passwords",
              "force-push shared branches", "touch the vendor folder", "rename public functions",
              "mix refactors with fixes", "write to the production database",
              "use abbreviations in variable names", "leave TODOs without a ticket",
              "catch exceptions silently", "put secrets in the config file",
              "change the lockfile by hand", "add comments that repeat the code",
              "use global state", "import from internal modules of other packages",
              "commit commented-out code", "use sleep in tests", "bump major versions"],
    "always": ["run the tests before committing", "add a changelog entry", "write a test for each bug fix",
               "use parameterised queries", "keep functions under 50 lines", "update the docs with the code",
               "make migrations reversible", "sign your commits", "run cargo fmt",
               "check the return value", "handle the error case", "ask before deleting files",
               "use the existing helpers", "put types in types.ts", "keep the public API stable",
               "close the file handles", "validate user input at the boundary",
               "prefix branch names with the ticket number", "write commit messages in English",
               "squash before merging", "pin dependency versions", "document public functions",
               "use the design tokens for colors", "add an index for new foreign keys"],
    "fact": ["the tests live in tests/, not next to the code", "the config is in config/app.toml",
             "the API returns cents, not euros", "the timeout is in milliseconds",
             "we deploy with make deploy", "the mobile app expects snake_case fields",
             "the service runs behind a proxy", "staging uses its own database",
             "our CI runs on Node 18", "the monorepo uses workspaces",
             "migrations go in db/migrations", "the UI strings live in locales/"],
    "task": ["Add pagination to the users endpoint", "Write a test for the login flow",
             "Fix the bug where the cart total is negative", "Refactor the upload handler",
             "Implement the CSV export", "Add a retry to the HTTP client", "Create a settings page",
             "Split the service into two modules", "Add logging to the worker",
             "Update the README with the new flags", "Migrate the orders table",
             "Add a dark mode toggle", "Make the parser handle empty lines",
             "Write the Dockerfile for the API", "Add type hints to utils.py",
             "Profile the search endpoint", "Add an index on orders.created_at",
             "Set up the GitHub Actions workflow", "Rename the variable tmp to buffer",
             "Port the script to Python", "Add a --verbose flag", "Cache the user lookups",
             "Handle the 404 case in the client", "Generate the OpenAPI spec"],
    "thing": ["the parser", "the login form", "the cache", "the build", "the worker", "the CI",
              "the migration", "the upload", "the API client", "the dashboard", "the scheduler",
              "the search", "the tests", "the importer", "the websocket", "the cron job"],
}

FR = {
    "tool": [("pnpm", "npm"), ("fetch", "axios"), ("date-fns", "moment"), ("pytest", "unittest"),
             ("les tabulations", "les espaces"), ("les exports nommés", "les exports par défaut"),
             ("const", "let"), ("async/await", "les callbacks"), ("le logger", "des print"),
             ("yarn", "npm"), ("TypeScript", "du JavaScript"), ("Tailwind", "des styles en ligne"),
             ("le query builder", "du SQL brut"), ("make", "les scripts shell"),
             ("pathlib", "os.path"), ("des retours anticipés", "des if imbriqués"),
             ("la composition", "l'héritage"), ("le snake_case", "le camelCase"),
             ("des horodatages UTC", "l'heure locale"), ("des entiers pour les montants", "des flottants"),
             ("podman", "docker"), ("httpx", "requests"), ("vitest", "jest"), ("ruff", "flake8")],
    "never": ["commiter le fichier .env", "pousser directement sur main", "modifier les fichiers générés",
              "reformater les fichiers que tu n'as pas touchés", "utiliser unwrap dans la bibliothèque",
              "ajouter des dépendances sans demander", "supprimer les migrations", "désactiver le linter",
              "sauter les tests", "coder les URL en dur", "utiliser any en TypeScript",
              "logger les mots de passe", "forcer le push sur les branches partagées",
              "toucher au dossier vendor", "renommer les fonctions publiques",
              "mélanger refactorisation et correctifs", "écrire dans la base de production",
              "utiliser des abréviations dans les noms de variables", "laisser des TODO sans ticket",
              "avaler les exceptions", "mettre des secrets dans la config",
              "modifier le lockfile à la main", "commiter du code commenté", "utiliser sleep dans les tests"],
    "always": ["lancer les tests avant de commiter", "ajouter une entrée au changelog",
               "écrire un test pour chaque correctif", "utiliser des requêtes paramétrées",
               "garder les fonctions courtes", "mettre à jour la doc avec le code",
               "écrire des migrations réversibles", "signer tes commits", "lancer cargo fmt",
               "vérifier la valeur de retour", "gérer le cas d'erreur", "demander avant de supprimer des fichiers",
               "utiliser les helpers existants", "garder l'API publique stable",
               "valider les entrées utilisateur", "préfixer les branches par le numéro du ticket",
               "écrire les messages de commit en anglais", "squasher avant de fusionner",
               "épingler les versions des dépendances", "documenter les fonctions publiques"],
    "fact": ["les tests sont dans tests/, pas à côté du code", "la config est dans config/app.toml",
             "l'API renvoie des centimes, pas des euros", "le délai est en millisecondes",
             "on déploie avec make deploy", "l'appli mobile attend des champs en snake_case",
             "les migrations vont dans db/migrations", "les textes de l'interface sont dans locales/"],
    "task": ["Ajoute la pagination à l'endpoint des utilisateurs", "Écris un test pour la connexion",
             "Corrige le bug du total négatif du panier", "Refactorise le gestionnaire d'upload",
             "Implémente l'export CSV", "Ajoute une relance au client HTTP", "Crée une page de réglages",
             "Découpe le service en deux modules", "Ajoute des logs au worker",
             "Mets à jour le README avec les nouvelles options", "Migre la table des commandes",
             "Ajoute un mode sombre", "Fais en sorte que le parseur gère les lignes vides",
             "Écris le Dockerfile de l'API", "Ajoute des annotations de type à utils.py",
             "Profile l'endpoint de recherche", "Ajoute un index sur orders.created_at",
             "Configure le workflow GitHub Actions", "Renomme la variable tmp en buffer",
             "Porte le script en Python", "Ajoute une option --verbose", "Mets en cache les utilisateurs"],
    "thing": ["le parseur", "le formulaire de connexion", "le cache", "le build", "le worker", "la CI",
              "la migration", "l'upload", "le client API", "le tableau de bord", "le planificateur",
              "la recherche", "les tests", "l'import", "le websocket", "la tâche cron"],
}

EN_POS_LIT = r"""
Please don't reformat files you didn't touch.
I prefer early returns over nested ifs.
Use snake_case for the JSON fields, the mobile app expects it.
seriously, stop adding emojis to the log messages
The commit messages should be in the imperative mood, like I showed you.
hey, small thing: we put the license header on every new file
we're a pnpm shop, keep that in mind
I don't want any new dependencies without asking me first.
Can you please stop rewriting my comments? Leave them as they are.
Why do you keep adding try/except around everything? Let errors propagate.
There's no need to explain every line in comments, we write self-documenting code here.
Tests should never hit the network. Mock it.
For the record, all public functions need docstrings.
one more time: 2 spaces for YAML, 4 for Python
Wrong again, the staging URL is staging.example.com, not stage.example.com.
You broke the build again by removing the feature flag. Feature flags stay until product removes them.
Keep the PRs small, one concern per PR.
Please keep the line length at 100, that's what our formatter uses.
I hate when you use magic numbers. Name your constants.
Nah, don't use a class for this, a plain function is enough. That's how we do it.
nope. revert. we never touch the legacy folder
That's the third time you've committed the build artifacts. dist/ is ignored for a reason.
Honestly, I'd like you to ask before running migrations against any database.
The agreed convention is that errors are logged once, at the top.
We decided last sprint to drop jQuery, so no jQuery in new code.
You did it again: you created a new util file instead of using the existing one.
Make sure every endpoint has an OpenAPI description from now on.
heads up: our Python is 3.9, so no match statements and no | in type hints
Don't ever run rm -rf in the repo root.
Not that way. Dependencies are injected through the constructor here.
Use UTC everywhere. Local time only in the UI.
Please no more print debugging in committed code.
All SQL goes through the repository layer; handlers never build queries.
I asked for kebab-case file names. This is PascalCase.
Hmm, you used a default export again. Named exports only, please.
You're mixing tabs and spaces again. Tabs.
Stick to the existing error types; don't invent new ones for each function.
Remember, the changelog is written for users, not developers.
Going forward please write the tests before the implementation.
From here on out, every new page needs a loading state.
Whenever you add an env variable, add it to .env.example too.
btw we don't do squash merges here, rebase and merge
Again?? I said no console.log in production code.
I've said it before and I'll say it again: no global mutable state.
you never listen, the docs folder is generated, don't edit it
Each time you change the schema, regenerate the types. You forgot last time too.
I'd appreciate it if you used descriptive variable names instead of x, y, tmp.
The rule in this team is simple: no merge without a review.
Use American spelling in user-facing text.
keep secrets out of the code, they go in vault
Always prefix private helpers with an underscore in this codebase.
Never catch a bare Exception.
Do not edit files under migrations/ once they are merged.
You should know by now that we deploy on Tuesdays only.
Listen, the API client is generated from the spec. Change the spec, not the client.
Please stop suggesting Redux, we use Zustand.
We always write dates as ISO 8601 in the API.
I told you yesterday: the cache TTL is 5 minutes.
Fix it, and please stop leaving unused imports behind.
This again... the tests go next to the code in __tests__, not in a top-level folder.
Ok but next time run the linter before telling me it's done.
Looks fine, but in future use the logger instead of print.
Thanks. One thing though: we always pin exact versions in package.json.
Good, but don't squash my commits without asking.
You used var. We use let/const, always.
Could you not add type: ignore comments? Fix the types instead.
argh you deleted the fixtures again. they are checked in on purpose
Actually, in this project booleans are named is_something or has_something.
Quick reminder that the main branch is protected and you must open a PR.
Do not bump dependencies as part of feature work.
I really prefer small functions, please split that one.
Our style guide says max 3 arguments per function.
Write the error messages in lowercase without a final period, like the rest of the code.
PLEASE stop using git add -A
we use conventional commits, e.g. feat: or fix:
When you write SQL, uppercase the keywords. That's our style.
You forgot the tests again. Every change needs tests.
Why is there a new config file? We keep all config in pyproject.toml.
Stop mocking everything, use the test database.
No more abbreviations like usr, cfg, ctx in names, please.
I keep seeing unwrap() in your code. Use ? and proper errors.
Make a mental note: the frontend lives in web/, not client/.
In our repo, shell scripts start with set -euo pipefail.
Rule: no function longer than a screen.
Please always add the ticket number to the branch name.
Always answer me in English even if I write in French.
""".strip().splitlines()

EN_NEG_LIT = r"""
Why do we never see the error in production logs?
Can you check why the nightly job always fails on Sundays?
Please write a migration that adds a nullable column.
Instead of polling, can we use a webhook for this integration? What do you think?
Don't worry about performance for now, just make it work.
I prefer we talk about the design before you write code for this feature.
We use Postgres 15; what's the best way to do full-text search?
Never seen this stack trace before. What does it mean?
The function always returns None, can you find out why?
Always getting a 401 from the API after login, any idea?
I told the team we'd have the demo ready by Friday, let's prioritise the dashboard.
You used a recursive approach; would an iterative one be faster?
Again, thanks for the help with the parser yesterday. Now let's do the lexer.
Can you run the tests again? I think it was flaky.
Add a "never expire" option to the cache settings.
Add a toggle so users can always see the sidebar.
Write a regex that never matches an empty string.
How do I make git always rebase on pull?
What's our convention for naming database indexes? Check the existing migrations.
Is there a rule in the linter config about line length?
Use the existing date helper to format the invoice date.
Let's use a queue instead of direct calls for the email sending in this feature.
I'd like a summary of the changes you made today.
Could you rename getUser to fetchUser in this file?
Remove the duplicate code in the two handlers.
The spinner never stops when the request fails. Fix that.
Users should never be able to delete another user's post; add that check.
Make the export always include a header row.
The error message says 'never reached'. Where does that come from?
Why did the build fail? Here's the output.
Don't stop halfway, finish the refactor of the whole module.
Keep going with the plan you proposed.
Stop the dev server and restart it with the new env.
Stop here for now, I'll review.
No, I don't need tests for this throwaway script.
Nope, that's all for today, thanks.
No, the other one: the second function in the file.
Wrong branch? Let me check... never mind, it's fine.
That looks correct to me. Merge it.
Please go ahead and deploy to staging.
We use Sentry for error tracking. Can you add it to the worker?
We never got around to writing tests for this module; can you add some?
I always forget how to run the e2e tests, what's the command?
In the future we might move to Kubernetes, but for now keep docker-compose.
For future reference, what does this flag actually do?
Remember to ping me when the deploy is done.
Next time we talk I want to discuss the architecture. For now, fix the bug.
The customer says the app never loads on Safari. Can you reproduce?
Replace moment with date-fns in this file, it's the last one left.
Convert the callbacks in this module to async/await.
Here's the code:
    if not user:
        return None
Can you simplify it?
Write a function that always rounds money down to the cent.
Add a lint rule that forbids console.log.
Configure prettier so it always uses single quotes.
Can you explain what 'never' means as a TypeScript type?
Use tabs or spaces? What does the existing code do?
Is it okay to use unwrap here or should I handle the error?
Could we always run the migrations on startup? Pros and cons?
Do you think we should never use inheritance in this codebase?
Please add the same validation to the signup form.
Again the same flaky test failed on CI, can you look at the logs?
I fixed the bug myself, you can continue with the docs.
The linter complains about line 40. Can you fix it?
Instead of a list, return a generator from this function.
Make sure the new endpoint returns 404 when the item doesn't exist.
Please don't forget to push the branch when you're done.
I'll be away tomorrow, so finish the migration today if you can.
Good catch! Fix it the way you suggested.
Thanks, that's exactly what I wanted.
Hmm, interesting. Can you show me the benchmark numbers?
Write the release notes for version 2.3.
Translate the error messages into Spanish.
Move the helper to utils and update the imports.
Delete the old feature flag code for the checkout.
Why does the test always pass even when I break the code?
The dashboard should always show the last 30 days by default. Implement it.
Check whether we ever call this function with a null argument.
""".strip().splitlines()

FR_POS_LIT = r"""
Évite les abréviations dans les noms de variables.
Je t'ai déjà dit de ne pas modifier les fichiers générés.
Retiens : les migrations doivent toujours être réversibles.
Arrête de reformater des fichiers que tu n'as pas touchés, s'il te plaît.
Je préfère les retours anticipés aux if imbriqués.
Mets les champs JSON en snake_case, l'appli mobile les attend comme ça.
pff, encore des tabulations. On met des espaces ici.
Tu as encore utilisé axios alors qu'on s'était mis d'accord sur fetch.
Pour la suite : pas de nouvelle dépendance sans me demander.
Merci de ne plus laisser de console.log dans le code.
On écrit les messages de commit au présent et en anglais, je te l'ai déjà dit.
Les tests ne doivent jamais appeler le réseau. Utilise des mocks.
Pour mémoire, toutes les fonctions publiques ont une docstring.
Faux, encore une fois : l'URL de staging est staging.example.com.
Garde les PR petites, un sujet par PR.
La longueur de ligne, c'est 100 caractères chez nous.
Pas de nombres magiques, nomme tes constantes.
Nan, pas de classe pour ça, une fonction suffit. C'est comme ça qu'on fait.
Tu as encore commité le dossier dist. Il est ignoré exprès.
La convention, c'est de logger les erreurs une seule fois, tout en haut.
On a décidé d'abandonner jQuery, donc plus de jQuery dans le nouveau code.
Tu as recommencé : tu as créé un nouveau fichier utilitaire au lieu d'utiliser l'existant.
Chaque endpoint doit avoir sa description OpenAPI, désormais.
Attention, on est en Python 3.9 : pas de match.
Ne lance jamais rm -rf à la racine du dépôt.
Pas comme ça. Ici les dépendances sont injectées par le constructeur.
Utilise l'UTC partout, l'heure locale seulement dans l'interface.
Plus de print de débogage dans le code commité, merci.
Tout le SQL passe par la couche repository ; les handlers ne construisent jamais de requêtes.
J'avais demandé des noms de fichiers en kebab-case, là c'est du PascalCase.
Encore un export par défaut... Exports nommés uniquement.
Tu mélanges encore tabulations et espaces.
Garde les types d'erreur existants, n'en invente pas pour chaque fonction.
N'oublie pas que le changelog s'adresse aux utilisateurs.
À partir de maintenant, écris les tests avant le code.
Quand tu ajoutes une variable d'environnement, ajoute-la aussi dans .env.example.
Au fait, on ne fait pas de squash merge ici, on rebase.
Encore ?? J'ai dit pas de console.log en production.
Je l'ai déjà dit et je le redis : pas d'état global mutable.
Tu n'écoutes jamais : le dossier docs est généré, ne le modifie pas.
Chaque fois que tu changes le schéma, régénère les types. Tu as oublié la dernière fois aussi.
J'aimerais des noms de variables parlants, pas x, y ou tmp.
La règle dans l'équipe : pas de merge sans relecture.
Les secrets ne vont pas dans le code, ils vont dans le coffre.
Ne capture jamais une Exception générique.
Ne modifie pas les fichiers de migrations une fois fusionnés.
Tu devrais savoir qu'on ne déploie que le mardi.
Le client API est généré à partir de la spec : modifie la spec, pas le client.
Arrête de proposer Redux, on utilise Zustand.
Dans l'API, les dates sont toujours au format ISO 8601.
Je te l'ai dit hier : le TTL du cache est de 5 minutes.
Corrige ça, et arrête de laisser des imports inutiles.
Encore ça... les tests vont à côté du code, dans __tests__.
OK, mais la prochaine fois lance le linter avant de dire que c'est fini.
C'est bien, mais à l'avenir utilise le logger au lieu de print.
Merci. Par contre, on épingle toujours les versions exactes dans package.json.
Ne squashe pas mes commits sans demander.
Tu as mis var. Chez nous c'est let/const, toujours.
Pas de commentaires type: ignore, corrige les types.
Rahh tu as encore supprimé les fixtures, elles sont versionnées exprès.
En fait, dans ce projet les booléens s'appellent is_quelque_chose.
Petit rappel : la branche main est protégée, il faut ouvrir une PR.
Ne mets pas à jour les dépendances pendant le travail sur une fonctionnalité.
Je préfère vraiment les petites fonctions, découpe celle-là.
Notre guide de style dit trois arguments maximum par fonction.
ARRÊTE d'utiliser git add -A
On utilise les conventional commits, genre feat: ou fix:
Tu as encore oublié les tests. Chaque changement a besoin de tests.
Pourquoi un nouveau fichier de config ? Toute la config est dans pyproject.toml.
Arrête de tout mocker, utilise la base de test.
Plus d'abréviations comme usr, cfg ou ctx dans les noms.
Je vois encore des unwrap() partout. Utilise ? et de vraies erreurs.
Note bien : le frontend est dans web/, pas dans client/.
Chez nous, les scripts shell commencent par set -euo pipefail.
Mets toujours le numéro du ticket dans le nom de la branche.
Réponds-moi toujours en français.
Combien de fois je dois te le dire ? Pas de push direct sur main.
C'est la troisième fois que je te le dis : lance les tests.
Je répète : on ne touche pas au dossier legacy.
Une fois pour toutes : les montants sont en centimes.
Il faut que tu retiennes que l'API renvoie des centimes.
""".strip().splitlines()

FR_NEG_LIT = r"""
Toujours le même bug ? Regarde les logs.
Pourquoi on ne voit jamais l'erreur dans les logs de production ?
Tu peux regarder pourquoi le job de nuit échoue toujours le dimanche ?
Écris une migration qui ajoute une colonne nullable.
Au lieu de faire du polling, on pourrait utiliser un webhook ? Qu'en penses-tu ?
Ne t'inquiète pas des performances pour l'instant, fais juste que ça marche.
Je préfère qu'on parle du design avant que tu codes cette fonctionnalité.
On utilise Postgres 15 ; quelle est la meilleure façon de faire de la recherche plein texte ?
Jamais vu cette trace d'erreur. Ça veut dire quoi ?
La fonction renvoie toujours None, tu peux trouver pourquoi ?
Toujours une 401 de l'API après la connexion, une idée ?
J'ai dit à l'équipe que la démo serait prête vendredi, priorise le tableau de bord.
Tu as utilisé une approche récursive ; une version itérative serait plus rapide ?
Encore merci pour le parseur hier. Maintenant le lexer.
Tu peux relancer les tests ? Je crois que c'était instable.
Ajoute une option « n'expire jamais » aux réglages du cache.
Ajoute un réglage pour que la barre latérale soit toujours visible.
Écris une regex qui ne matche jamais une chaîne vide.
Comment faire pour que git rebase toujours au pull ?
Quelle est notre convention pour nommer les index ? Regarde les migrations existantes.
Utilise le helper de date existant pour formater la date de facture.
Utilisons une file d'attente plutôt que des appels directs pour l'envoi des e-mails dans cette fonctionnalité.
J'aimerais un résumé de ce que tu as changé aujourd'hui.
Tu peux renommer getUser en fetchUser dans ce fichier ?
Supprime le code dupliqué dans les deux handlers.
Le spinner ne s'arrête jamais quand la requête échoue. Corrige ça.
Un utilisateur ne doit jamais pouvoir supprimer le post d'un autre ; ajoute ce contrôle.
Fais en sorte que l'export contienne toujours une ligne d'en-tête.
Ne t'arrête pas à mi-chemin, termine la refactorisation du module.
Continue avec le plan que tu as proposé.
Arrête le serveur de dev et relance-le avec le nouvel env.
Arrête-toi là pour l'instant, je vais relire.
Non, pas besoin de tests pour ce script jetable.
Non, c'est tout pour aujourd'hui, merci.
Non, l'autre : la deuxième fonction du fichier.
Ça me semble correct. Fusionne.
Vas-y, déploie sur staging.
On utilise Sentry pour les erreurs. Tu peux l'ajouter au worker ?
On n'a jamais écrit de tests pour ce module ; tu peux en ajouter ?
J'oublie toujours comment lancer les tests e2e, c'est quoi la commande ?
À terme on passera peut-être à Kubernetes, mais pour l'instant garde docker-compose.
Pense à me prévenir quand le déploiement est fini.
Le client dit que l'appli ne charge jamais sur Safari. Tu peux reproduire ?
Remplace moment par date-fns dans ce fichier, c'est le dernier.
Convertis les callbacks de ce module en async/await.
Écris une fonction qui arrondit toujours les montants au centime inférieur.
Ajoute une règle de lint qui interdit console.log.
Configure prettier pour qu'il utilise toujours des guillemets simples.
Tabulations ou espaces ? Que fait le code existant ?
C'est grave d'utiliser unwrap ici ou je dois gérer l'erreur ?
On pourrait toujours lancer les migrations au démarrage ? Avantages et inconvénients ?
Tu penses qu'on devrait ne jamais utiliser l'héritage dans ce code ?
Ajoute la même validation au formulaire d'inscription.
Encore le même test instable sur la CI, tu peux regarder les logs ?
J'ai corrigé le bug moi-même, tu peux continuer la doc.
Le linter râle ligne 40. Tu peux corriger ?
Au lieu d'une liste, renvoie un générateur.
Vérifie que le nouvel endpoint renvoie 404 quand l'élément n'existe pas.
N'oublie pas de pousser la branche quand tu as fini.
Je suis absent demain, termine la migration aujourd'hui si tu peux.
Bien vu ! Corrige comme tu l'as proposé.
Merci, c'est exactement ce que je voulais.
Intéressant. Tu peux me montrer les chiffres du benchmark ?
Écris les notes de version de la 2.3.
Traduis les messages d'erreur en espagnol.
Déplace le helper dans utils et mets à jour les imports.
Supprime l'ancien code du feature flag du paiement.
Pourquoi le test passe toujours même quand je casse le code ?
Le tableau de bord doit toujours afficher les 30 derniers jours par défaut. Implémente-le.
Vérifie si on appelle jamais cette fonction avec un argument nul.
Plutôt que de tout réécrire, on peut juste corriger la fonction ?
Désolé, je me suis trompé de fichier, regarde plutôt app.py.
Rappelle-moi ce que fait ce script.
Tu te souviens de la discussion d'hier ? On continue.
Encore une petite chose : ajoute un test pour le cas vide.
""".strip().splitlines()


EN_POS_LIT += r"""
Keep imports sorted alphabetically, like the rest of the codebase.
Keep the README in sync with the CLI flags, always.
Switch to ruff and stick with it, no more flake8.
Make it a habit to run the type checker before you push.
Third time now: the env file must not be committed.
The style guide says no more than three arguments per function.
Hold on, we don't put business logic in the controllers. Move it to a service.
Please, for the love of god, stop renaming my variables.
Don't touch the CI config unless I ask.
You changed the public API without telling me. Never do that.
Eh, that's not our style. We write small pure functions.
that's wrong: prices are integers in cents, never floats
no! the tests go in the tests folder
Did you forget that we use pnpm? Don't run npm install.
You again added a dependency for a one-liner. We avoid that.
Quick note for the future: the docs are built with mkdocs, not sphinx.
Important for later: every migration needs a down step.
We agreed to write commit messages in English, please stick to that.
I've asked twice already: no inline styles.
Dude, the linter config is there for a reason. Don't disable rules inline.
Can you stop putting everything in one giant file? One module per concern.
Always double-check the migration against a copy of prod data before running it.
Never log the request body, it contains personal data.
Remember we support Python 3.8, so no walrus operator.
Just a reminder that the API is versioned, never break v1.
Use the shared Button component, don't create a new one each time.
Sorry to insist, but it's tabs in this repo.
Let me be clear: no force pushes, ever.
Going forward, put the ticket number in every commit message.
You're using print again, use the logger.
Yet again you skipped the tests. Run them before saying it's done.
I don't like abbreviations in function names. Spell them out.
Please follow the existing naming: services end with Service.
We write tests with pytest fixtures, not setUp methods.
For this project, all times are stored in UTC.
Stop committing directly, open a pull request.
Never ever call the payment API from the tests.
Next time, ask me before you delete anything.
Every new endpoint needs an integration test, that's the rule here.
No more TODO comments please, open an issue instead.
""".strip().splitlines()

EN_NEG_LIT += r"""
Remember the bug from last week? Can you check if it's fixed?
Do you remember which file had the rate limiter?
Should the cache always be invalidated on write? What do you think?
Would it be a good idea to never retry on 500 errors?
Is it true that Rust never frees memory in a leak?
What happens if the queue is never drained?
Why would anyone always use a mutex here?
Is tabs or spaces the better default for a new project?
Do you prefer React or Vue for this kind of dashboard?
Which do you prefer for the API, REST or GraphQL?
Keep the modal open until the user clicks outside.
Keep the old endpoint for now, we remove it next release.
Switch the chart to a bar chart.
Make the retry logic never give up on network errors, with a max delay of 30 seconds.
The validator should always reject empty emails; add a test for that.
The service must never return a 500 for bad input; return 400 instead.
Ensure the job always runs at midnight UTC.
Add a comment explaining why we never close this connection.
Going forward with the migration, what's the next step?
Note that the tests are slow on my machine, so be patient.
I prefer to review the plan first, so write it down before coding.
I told my manager it would be done today, so let's focus.
You used the right approach, thanks. Now add pagination.
You did a great job on the parser.
Again, the build is red on main. Can you check what broke?
Never mind the warning, it's harmless.
Always the same question: how do I run only one test?
Don't change the API yet, first write the RFC.
Don't delete the branch, I still need it.
Stop the benchmark after 10 iterations.
Stop the worker if the queue is empty for 5 minutes; implement that.
Instead of two queries, can you use a join?
Rather than a new service, extend the existing one for this feature.
No, not yet. Wait until the review is done.
Wrong number of arguments error on line 12, can you fix it?
That's wrong output for the second test case, debug it.
The test is wrong, the expected value should be 42. Fix the test.
This is the third run that failed, look at the logs.
How many times does this loop run?
How many times do we call the API per request?
""".strip().splitlines()

FR_POS_LIT += r"""
Garde les imports triés par ordre alphabétique, comme dans le reste du code.
Passe à ruff et tiens-t'y, plus de flake8.
Prends l'habitude de lancer le typage avant de pousser.
Troisième fois : le fichier .env ne doit pas être commité.
Attends, on ne met pas de logique métier dans les contrôleurs. Mets-la dans un service.
S'il te plaît, arrête de renommer mes variables.
Ne touche pas à la config de la CI sauf si je te le demande.
Tu as changé l'API publique sans me prévenir. Ne fais jamais ça.
Bof, ce n'est pas notre style. On écrit des petites fonctions pures.
c'est faux : les prix sont des entiers en centimes, jamais des flottants
non ! les tests vont dans le dossier tests
Tu as oublié qu'on utilise pnpm ? Ne lance pas npm install.
Tu as encore ajouté une dépendance pour une ligne de code. On évite ça.
Note pour plus tard : la doc est générée avec mkdocs, pas sphinx.
Important pour la suite : chaque migration a besoin d'une étape down.
On s'était mis d'accord pour écrire les commits en anglais, tiens-t'y.
Je l'ai demandé deux fois : pas de styles en ligne.
La config du linter est là pour une raison. Ne désactive pas les règles en ligne.
Tu peux arrêter de tout mettre dans un seul fichier ? Un module par sujet.
Ne logge jamais le corps des requêtes, il contient des données personnelles.
Rappelle-toi qu'on supporte Python 3.8, donc pas d'opérateur morse.
Petit rappel : l'API est versionnée, ne casse jamais la v1.
Utilise le composant Button partagé, n'en crée pas un nouveau à chaque fois.
Désolé d'insister, mais c'est des tabulations dans ce dépôt.
Soyons clairs : pas de force push, jamais.
Tu remets des print, utilise le logger.
Encore une fois tu as sauté les tests. Lance-les avant de dire que c'est fini.
Je n'aime pas les abréviations dans les noms de fonctions. Écris-les en entier.
Respecte le nommage existant : les services finissent par Service.
On écrit les tests avec des fixtures pytest, pas des setUp.
Pour ce projet, toutes les heures sont stockées en UTC.
Arrête de commiter directement, ouvre une pull request.
N'appelle jamais l'API de paiement depuis les tests.
La prochaine fois, demande-moi avant de supprimer quoi que ce soit.
Chaque nouvel endpoint a besoin d'un test d'intégration, c'est la règle ici.
Plus de commentaires TODO, ouvre plutôt un ticket.
Garde les PR petites, c'est la règle de l'équipe.
On préfère les fonctions aux classes dans ce code.
Je veux que tu écrives les tests d'abord, à chaque fois.
T'as encore mis des points-virgules, on n'en met pas ici.
""".strip().splitlines()

FR_NEG_LIT += r"""
Tu te souviens du bug de la semaine dernière ? Tu peux vérifier s'il est corrigé ?
Tu te rappelles quel fichier contient le limiteur de débit ?
Le cache doit-il toujours être invalidé à l'écriture ? Tu en penses quoi ?
Ce serait une bonne idée de ne jamais réessayer sur une erreur 500 ?
Que se passe-t-il si la file n'est jamais vidée ?
Tabulations ou espaces, c'est quoi le meilleur choix pour un nouveau projet ?
Tu préfères React ou Vue pour ce genre de tableau de bord ?
Garde la fenêtre modale ouverte jusqu'à ce que l'utilisateur clique à côté.
Garde l'ancien endpoint pour l'instant, on le supprime à la prochaine version.
Passe le graphique en barres.
Fais en sorte que la relance n'abandonne jamais sur une erreur réseau, avec un délai max de 30 secondes.
Le validateur doit toujours rejeter les e-mails vides ; ajoute un test pour ça.
Le service ne doit jamais renvoyer une 500 sur une entrée invalide ; renvoie une 400.
Assure-toi que le job tourne toujours à minuit UTC.
Ajoute un commentaire qui explique pourquoi on ne ferme jamais cette connexion.
Note que les tests sont lents sur ma machine, sois patient.
Je préfère relire le plan d'abord, donc écris-le avant de coder.
J'ai dit à mon chef que ce serait fini aujourd'hui, concentrons-nous.
Tu as utilisé la bonne approche, merci. Ajoute la pagination maintenant.
Encore une fois, le build est rouge sur main. Tu peux regarder ce qui a cassé ?
Laisse tomber l'avertissement, il est sans danger.
Ne change pas encore l'API, écris d'abord la RFC.
Ne supprime pas la branche, j'en ai encore besoin.
Arrête le benchmark après 10 itérations.
Au lieu de deux requêtes, tu peux faire une jointure ?
Plutôt qu'un nouveau service, étends l'existant pour cette fonctionnalité.
Non, pas encore. Attends la fin de la relecture.
Le test est faux, la valeur attendue devrait être 42. Corrige le test.
C'est la troisième exécution qui échoue, regarde les logs.
Combien de fois cette boucle tourne ?
Désormais, quelle est la prochaine étape de la migration ?
À partir de maintenant, qu'est-ce qui reste à faire ?
Il faut toujours combien de temps pour lancer la CI ?
On ne peut jamais se connecter à la base de staging, tu sais pourquoi ?
Je n'arrive jamais à lancer les tests e2e, tu peux m'aider ?
Toujours pas de réponse du serveur, relance-le.
Jamais deux sans trois, le build a encore cassé. Regarde.
Retiens ton souffle, le déploiement est long. Surveille les logs.
Utilise toujours le même jeu de données pour ce benchmark, sinon les chiffres ne sont pas comparables.
Évite de bloquer l'interface pendant le chargement dans ce composant.
""".strip().splitlines()


# --- templates: (label, text); {a}/{b} a tool pair, {never}, {always}, {fact}, {task}, {thing}

EN_POS = [
    "No, use {a}, not {b}.", "no use {a} not {b}", "Nope, we use {a} here.", "No no, {a}. Not {b}.",
    "Use {a} instead of {b}, always.", "Always use {a}.", "Never {never}.", "never {never}",
    "Don't {never}.", "Please don't {never}.", "please do not {never}, ever", "Do not {never}.",
    "Stop trying to {never}.", "Always {always}.", "Make sure you always {always}.",
    "From now on, {always}.", "from now on use {a}", "Going forward, {always}.", "Next time, {always}.",
    "Next time please {always}, thanks.", "In the future, {always}.", "For future reference: {fact}.",
    "For future reference, we use {a} and not {b}.", "FYI {fact}.", "Just so you know, {fact}.",
    "Remember: {fact}.", "Remember that we {always}.", "Keep in mind that {fact}.",
    "Note for later: {always}.", "Note to self for you: never {never}.",
    "I prefer {a} over {b}.", "I prefer {a}.", "I'd rather you used {a} than {b}.",
    "I like {a} better than {b}, use that.", "We use {a} here.", "we use {a} in this repo",
    "We use {a}, not {b}.", "Here we use {a}.", "In this codebase we use {a}.",
    "Our convention is to {always}.", "The convention here is {a}.", "We always {always}.",
    "We never {never}.", "On this team we {always}.", "House rule: {always}.",
    "Rule of thumb here: never {never}.", "Use {a} for this kind of thing, {fact}.",
    "Use {a} everywhere, {b} is banned.", "Prefer {a} to {b}.", "Avoid {b}; use {a}.",
    "You used {b} again even though we agreed on {a}.", "You used {b} again.",
    "Why did you use {b}? We use {a}.", "Why are you using {b}? I said {a}.",
    "Again with the {b}. Use {a}.", "again with {b}... it's {a} here", "ugh, not again. {a}, not {b}",
    "Ugh. {a}. Not {b}. How many times?", "Not {b} again, please.", "{a}, not {b}!",
    "I told you before: never {never}.", "I told you to {always}.", "I already told you not to {never}.",
    "As I said before, {fact}.", "Like I said earlier, we use {a}.", "How many times do I have to say it: {a}.",
    "This is the third time: {always}.", "I keep telling you, {fact}.", "Once again: never {never}.",
    "You forgot to {always} again.", "You keep forgetting to {always}.", "You did it again, you {b_past}.",
    "You should have used {a}.", "You shouldn't have used {b}.", "You were supposed to {always}.",
    "That's not how we do it here: {always}.", "That's not what I asked, use {a}.",
    "That's wrong, {fact}.", "Wrong, {fact}.", "No, {fact}.", "Actually, {fact}.",
    "Please stop using {b}.", "Stop using {b}, we moved to {a}.", "Quit using {b}.",
    "Don't use {b} in this project.", "We don't use {b} here.", "We stopped using {b} last year, use {a}.",
    "{b} is not allowed here, use {a}.", "Use {a} from now on.", "Switch to {a} and stick with it.",
    "Make it a habit to {always}.", "Every time you change code, {always}.",
    "Whenever you touch the API, {always}.", "Before you finish, always {always}.",
    "Do not ever {never} again.", "Never again {never}.", "It's {a}, not {b}.",
    "the rule is: {always}", "Please, {a}. Always {a}.", "Reminder: we {always}.",
    "Don't forget: {fact}.", "Don't forget to {always} next time.", "Be careful to never {never}.",
    "Important: never {never}.", "Please remember to {always}.", "Make a note: {fact}.",
]

EN_NEG = [
    "{task}.", "{task}, please.", "Can you {task_l}?", "Could you {task_l} when you have time?",
    "{task} and run the tests.", "Why does {thing} fail on CI?", "Why is {thing} so slow?",
    "How does {thing} work?", "Where is {thing} configured?", "What does {thing} do on startup?",
    "Explain {thing} to me.", "Is {thing} thread-safe?", "Does {thing} handle Unicode?",
    "Why do we never see the error in {thing} logs?", "Why does {thing} never finish?",
    "Is it always safe to retry {thing}?", "Should we always cache {thing}?",
    "Do we always need to rebuild {thing}?", "Can {thing} ever return null?",
    "Make {thing} always show a spinner while loading.", "Make sure {thing} never blocks the UI.",
    "Write a function that never panics on bad input.", "Add a check so {thing} never divides by zero.",
    "Use {a} instead of {b} in this one file, just for the benchmark.", "Try {a} instead of {b} and compare.",
    "Compare {a} and {b} for our use case.", "What's the difference between {a} and {b}?",
    "Is {a} faster than {b}?", "Should I use {a} or {b}?", "Which is better here, {a} or {b}?",
    "Don't worry about the tests for now.", "Don't bother with Windows support yet.",
    "Don't commit yet, I want to review first.", "Don't push, just show me the diff.",
    "No need to add tests for this spike.", "No rush, take your time.", "Never mind, let's look at {thing}.",
    "{thing} failed again with a timeout; can you look?", "It crashed again, here is the log.",
    "Run it again, the network was down.", "Try again with a smaller batch size.",
    "Thanks, that works!", "Great, now {task_l}.", "Looks good. Commit it.", "Perfect, ship it.",
    "Good job on {thing}. Next: {task_l}.", "OK, now {task_l}.", "Let's start with {thing}.",
    "Find where we use {b} in the codebase.", "List every file that uses {b}.",
    "Count how many times we call {thing}.", "Show me the diff for {thing}.",
    "Replace the loop in {thing} with an iterator.", "Refactor {thing} to use a map instead of a list.",
    "Rather than rewriting {thing}, add a wrapper around it.", "Instead of a new table, add a column.",
    "Always-on logging would be nice for {thing}; can you add a flag?",
    "The job should always retry three times; implement that.", "Add a test that {thing} never leaks memory.",
    "Summarise what changed in {thing}.", "Open a PR with these changes.", "Bump the version to 1.2.0.",
    "Why did the deploy fail?", "Why did you choose that algorithm? Just curious.",
    "What did you change in {thing}?", "Did you run the tests?", "Have you looked at the logs?",
    "I think {thing} has a race condition, can you check?", "I'm not sure {thing} handles retries.",
    "I wonder whether {a} would be faster here.", "We use {a} in production; why is it slow there?",
    "We use {a}, so how do I configure it for {thing}?", "We never got the email from {thing}; investigate.",
    "The users always complain about {thing}; any ideas?", "Our customers never see the banner; why?",
    "Add a feature flag for {thing}.", "Write docs for {thing}.", "Delete the unused imports in {thing}.",
    "Here is the stack trace from {thing}.", "The error says the file was not found.",
    "Please review {thing} and tell me what you think.", "Can you explain this error again?",
    "Read the code again and tell me where the leak is.", "Generate some test data for {thing}.",
    "Let's pair on {thing} tomorrow.", "I'll fix {thing} myself, you do the docs.",
    "{task}. It should never crash on empty input and always log the request id.",
    "Here is the function:\n```\ndef load(path):\n    return open(path).read()\n```\nAdd error handling.",
    "Don't change anything yet, just explain {thing}.", "Instead of guessing, add a print and run it.",
    "Always the same error in {thing}: connection refused. Any idea?", "Never seen this error before, what is it?",
    "Do we use {a} anywhere?", "Do we prefer {a} or {b} in similar projects? Look it up.",
    "Can you remind me how {thing} is deployed?", "Remember the bug from yesterday in {thing}? It's back.",
    "You fixed {thing}, thanks! Now {task_l}.", "You used {a} in {thing}; does it support streaming?",
    "I told the client we would ship {thing} on Friday, so {task_l}.", "Next, {task_l}.",
    "From the logs, {thing} restarts every hour. Find out why.", "Going forward with the plan: {task_l}.",
    "{task}. Use {a} for it.", "Use {a} to {task_l}.", "Please use the staging database for this run.",
    "Don't forget the semicolon on line 12.", "No, that's fine, keep it.",  "That's right, continue.", "Actually, let's do {thing} first.",
]

FR_POS = [
    "Non, utilise {a}, pas {b}.", "non utilise {a} pas {b}", "Non, ici on utilise {a}.",
    "Utilise {a} au lieu de {b}, toujours.", "Utilise toujours {a}.", "Ne jamais {never}.",
    "Ne fais jamais ça : {never}.", "N'essaie plus de {never}.", "Évite de {never}.",
    "Arrête de {never}.", "Il ne faut pas {never}.", "Il faut toujours {always}.",
    "Pense à toujours {always}.", "Désormais, {always_imp}.", "À partir de maintenant, {always_imp}.",
    "Dorénavant, {always_imp}.", "La prochaine fois, {always_imp}.", "À l'avenir, {always_imp}.",
    "Pour info, {fact}.", "Pour mémoire : {fact}.", "Retiens : {fact}.", "Retiens que {fact}.",
    "Souviens-toi que {fact}.", "Rappelle-toi : on utilise {a}.", "Note pour la suite : {always_imp}.",
    "Je préfère {a} à {b}.", "Je préfère {a}.", "J'aimerais que tu utilises {a} plutôt que {b}.",
    "On utilise {a} ici.", "Ici on utilise {a}, pas {b}.", "Dans ce projet, on utilise {a}.",
    "Chez nous, on utilise {a}.", "Notre convention : {always_inf}.", "La convention ici, c'est {a}.",
    "On ne fait jamais ça ici : {never}.", "On n'utilise pas {b} dans ce dépôt.",
    "Tu as encore utilisé {b} alors qu'on avait dit {a}.", "Tu as encore utilisé {b}.",
    "Pourquoi tu as utilisé {b} ? On utilise {a}.", "Pourquoi as-tu utilisé {b} ? J'ai dit {a}.",
    "Encore {b} ! Utilise {a}.", "Encore une fois : {a}, pas {b}.", "Pff, encore. {a}, pas {b}.",
    "Je t'ai déjà dit de ne pas {never}.", "Je t'ai dit de {always_inf}.", "Je te l'ai déjà dit : {fact}.",
    "Comme je l'ai dit, {fact}.", "Combien de fois faut-il le dire : {a}.", "Je répète : {fact}.",
    "Tu as oublié de {always_inf}, encore.", "Tu oublies toujours de {always_inf}.",
    "Tu aurais dû utiliser {a}.", "Tu n'aurais pas dû utiliser {b}.", "Tu étais censé {always_inf}.",
    "Ce n'est pas comme ça qu'on fait ici : {always_imp}.", "Ce n'est pas ce que j'ai demandé, utilise {a}.",
    "C'est faux, {fact}.", "Faux : {fact}.", "Non, {fact}.", "En fait, {fact}.",
    "Arrête d'utiliser {b}.", "Arrête avec {b}, on est passés à {a}.", "N'utilise pas {b} dans ce projet.",
    "{b} est interdit ici, utilise {a}.", "Utilise {a} à partir de maintenant.",
    "Prends l'habitude de {always_inf}.", "Chaque fois que tu modifies le code, {always_imp}.",
    "Avant de finir, {always_imp}, toujours.", "Plus jamais {b}.", "C'est {a}, pas {b}.",
    "La règle : {always_inf}.", "Rappel : on doit toujours {always_inf}.", "N'oublie pas : {fact}.",
    "N'oublie pas de {always_inf} la prochaine fois.", "Attention à ne jamais {never}.",
    "Important : ne jamais {never}.", "Merci de toujours {always_inf}.", "Évite {b}, préfère {a}.",
    "Privilégie {a} plutôt que {b}.", "Mets toujours {a}.", "Pas de {b} ici, on utilise {a}.",
]

FR_NEG = [
    "{task}.", "{task}, s'il te plaît.", "Tu peux {task_l} ?", "Pourrais-tu {task_l} quand tu as le temps ?",
    "{task} puis lance les tests.", "Pourquoi {thing} échoue sur la CI ?", "Pourquoi {thing} est si lent ?",
    "Comment fonctionne {thing} ?", "Où est configuré {thing} ?", "Que fait {thing} au démarrage ?",
    "Explique-moi {thing}.", "Est-ce que {thing} gère l'Unicode ?",
    "Pourquoi on ne voit jamais l'erreur dans les logs de {thing} ?", "Pourquoi {thing} ne termine jamais ?",
    "Est-ce toujours sûr de relancer {thing} ?", "Faut-il toujours mettre {thing} en cache ?",
    "Toujours le même bug dans {thing} ? Regarde les logs.", "Toujours rien dans les logs ?",
    "Fais en sorte que {thing} affiche toujours un indicateur de chargement.",
    "Vérifie que {thing} ne bloque jamais l'interface.", "Écris une fonction qui ne panique jamais.",
    "Essaie {a} au lieu de {b} pour le benchmark, juste dans ce fichier.", "Compare {a} et {b} pour notre cas.",
    "Quelle est la différence entre {a} et {b} ?", "{a} est-il plus rapide que {b} ?",
    "Je dois utiliser {a} ou {b} ?", "Ne t'occupe pas des tests pour l'instant.",
    "Ne commite pas encore, je veux relire.", "Pas besoin de tests pour ce prototype.",
    "Pas de souci, prends ton temps.", "Laisse tomber, regardons {thing}.",
    "{thing} a encore planté avec un timeout, tu peux regarder ?", "Ça a encore planté, voici le log.",
    "Relance, le réseau était coupé.", "Réessaie avec un lot plus petit.", "Merci, ça marche !",
    "Super, maintenant {task_lc}.", "Ça me va, commite.", "Parfait, on livre.", "OK, maintenant {task_lc}.",
    "Commençons par {thing}.", "Trouve où on utilise {b} dans le code.", "Liste les fichiers qui utilisent {b}.",
    "Montre-moi le diff de {thing}.", "Remplace la boucle de {thing} par un itérateur.",
    "Plutôt que de réécrire {thing}, ajoute une couche autour.", "Au lieu d'une nouvelle table, ajoute une colonne.",
    "Le job doit toujours réessayer trois fois ; implémente ça.", "Ajoute un test qui vérifie que {thing} ne fuit jamais.",
    "Résume ce qui a changé dans {thing}.", "Ouvre une PR avec ces changements.", "Pourquoi le déploiement a échoué ?",
    "Pourquoi as-tu choisi cet algorithme ? Simple curiosité.", "Qu'as-tu changé dans {thing} ?",
    "Tu as lancé les tests ?", "Je pense que {thing} a une condition de course, tu peux vérifier ?",
    "On utilise {a} en production ; pourquoi c'est lent là-bas ?", "On n'a jamais reçu l'e-mail de {thing}, enquête.",
    "Les utilisateurs se plaignent toujours de {thing}, des idées ?", "Ajoute un feature flag pour {thing}.",
    "Écris la doc de {thing}.", "Supprime les imports inutiles de {thing}.", "Voici la trace d'erreur de {thing}.",
    "Relis {thing} et dis-moi ce que tu en penses.", "Tu peux réexpliquer cette erreur ?",
    "Génère des données de test pour {thing}.", "Je m'occupe de {thing}, toi fais la doc.",
    "{task}. Il ne doit jamais planter sur une entrée vide et toujours logger l'identifiant.",
    "Voici la fonction :\n```\ndef load(path):\n    return open(path).read()\n```\nAjoute la gestion d'erreur.",
    "Ne change rien pour l'instant, explique-moi {thing}.", "Au lieu de deviner, ajoute un print et lance-le.",
    "Toujours la même erreur dans {thing} : connexion refusée. Une idée ?", "Jamais vu cette erreur, c'est quoi ?",
    "On utilise {a} quelque part ?", "Tu peux me rappeler comment {thing} est déployé ?",
    "Tu te souviens du bug d'hier dans {thing} ? Il est revenu.", "Tu as corrigé {thing}, merci ! Maintenant {task_lc}.",
    "Tu as utilisé {a} dans {thing} ; il gère le streaming ?", "Ensuite, {task_lc}.",
    "D'après les logs, {thing} redémarre toutes les heures. Trouve pourquoi.", "{task}. Utilise {a} pour ça.",
    "Utilise la base de staging pour ce test.", "N'oublie pas le point-virgule ligne 12.",
    "Non, c'est bien, garde-le.",  "C'est juste, continue.",
    "En fait, commençons par {thing}.", "Jamais le dimanche, les déploiements ? Vérifie le calendrier.",
]

FILLER_EN = ["Thanks.", "Then continue with the rest.", "Otherwise it looks fine.",
             "After that, run the tests.", "Keep going.", "The rest is good.", "Carry on with the migration."]
FILLER_FR = ["Merci.", "Ensuite continue.", "Sinon c'est bien.", "Après ça, lance les tests.",
             "Continue.", "Le reste est bon.", "Poursuis la migration."]
CODE = ["```\nfn main() {\n    let x = foo().unwrap();\n}\n```",
        "```ts\nimport axios from 'axios';\nexport default function load() {}\n```",
        "```python\nfor i in range(10):\n    print(i)\n```",
        "```\n$ npm install\nadded 120 packages\n```"]


def past(verb_pair):
    return "used " + verb_pair


def typo(text):
    """One or two slips a hurried user makes: a swapped pair, a dropped or doubled letter."""
    words = text.split(" ")
    for _ in range(RNG.choice([1, 1, 2])):
        i = RNG.randrange(len(words))
        w = words[i]
        if len(w) < 4 or not w.isalpha():
            continue
        j = RNG.randrange(1, len(w) - 1)
        op = RNG.choice(["swap", "drop", "double"])
        if op == "swap":
            w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        elif op == "drop":
            w = w[:j] + w[j + 1:]
        else:
            w = w[:j] + w[j] + w[j:]
        words[i] = w
    return " ".join(words)


def fill(template, slots, fr):
    a, b = RNG.choice(slots["tool"])
    always = RNG.choice(slots["always"])
    values = {
        "a": a, "b": b, "b_past": "used " + b,
        "never": RNG.choice(slots["never"]), "always": always, "fact": RNG.choice(slots["fact"]),
        "task": RNG.choice(slots["task"]), "thing": RNG.choice(slots["thing"]),
        "always_inf": always, "always_imp": imperative_fr(always) if fr else always,
    }
    values["task_l"] = values["task"][0].lower() + values["task"][1:]
    values["task_lc"] = values["task_l"]
    if fr:
        values["task_l"] = infinitive_fr(values["task"])
    text = template.format(**values)
    return text[0].upper() + text[1:] if RNG.random() < 0.85 else text.lower()


IMP_FR = {"lancer": "lance", "ajouter": "ajoute", "écrire": "écris", "utiliser": "utilise",
          "garder": "garde", "mettre": "mets", "vérifier": "vérifie", "gérer": "gère",
          "demander": "demande", "valider": "valide", "préfixer": "préfixe", "signer": "signe",
          "squasher": "squashe", "épingler": "épingle", "documenter": "documente"}


def imperative_fr(inf):
    verb, _, rest = inf.partition(" ")
    return (IMP_FR.get(verb, verb) + " " + rest).replace("signe tes", "signe tes")


def infinitive_fr(task):
    inv = {v: k for k, v in IMP_FR.items()}
    inv.update({"Ajoute": "ajouter", "Écris": "écrire", "Corrige": "corriger", "Refactorise": "refactoriser",
                "Implémente": "implémenter", "Crée": "créer", "Découpe": "découper", "Mets": "mettre",
                "Migre": "migrer", "Fais": "faire", "Profile": "profiler", "Configure": "configurer",
                "Renomme": "renommer", "Porte": "porter"})
    verb, _, rest = task.partition(" ")
    return inv.get(verb, verb.lower()) + " " + rest


def dress(text, label, fr):
    """The same prompt as users also type it: inside a longer request, after pasted code,
    with typos, or terse."""
    slots = FR if fr else EN
    filler = FILLER_FR if fr else FILLER_EN
    r = RNG.random()
    if r < 0.18:
        task = RNG.choice(slots["task"])
        return f"{task}. {text} {RNG.choice(filler)}"
    if r < 0.28:
        task = RNG.choice(slots["task"])
        return f"{task}, and {text[0].lower() + text[1:]}" if not fr else f"{task}, et {text[0].lower() + text[1:]}"
    if r < 0.36:
        return f"{RNG.choice(CODE)}\n{text}"
    if r < 0.50:
        return typo(text)
    if r < 0.56:
        return re.sub(r"[.!]$", "", text).lower()
    return text


def generate(templates, label, fr, per_template):
    rows = []
    slots = FR if fr else EN
    for template in templates:
        for _ in range(per_template):
            rows.append((label, dress(fill(template, slots, fr), label, fr)))
    return rows


def split(templates):
    """One template in five to the development set, chosen by a fixed shuffle."""
    order = list(range(len(templates)))
    RNG.shuffle(order)
    dev = set(order[: len(order) // 5])
    return [t for i, t in enumerate(templates) if i not in dev], [t for i, t in enumerate(templates) if i in dev]


def main():
    files = {}
    literal = lambda lines: [line.replace("{", "{{").replace("}", "}}") for line in lines]
    for templates, label, lang, n in [(EN_POS, "correction", "en", 6), (EN_NEG, "other", "en", 8),
                                      (FR_POS, "correction", "fr", 6), (FR_NEG, "other", "fr", 8),
                                      (literal(EN_POS_LIT), "correction", "en", 3),
                                      (literal(EN_NEG_LIT), "other", "en", 3),
                                      (literal(FR_POS_LIT), "correction", "fr", 3),
                                      (literal(FR_NEG_LIT), "other", "fr", 3)]:
        train, dev = split(templates)
        files.setdefault(f"prompts-train-{lang}.tsv", []).extend(generate(train, label, lang == "fr", n))
        files.setdefault(f"prompts-dev-{lang}.tsv", []).extend(generate(dev, label, lang == "fr", n))
    for name, rows in files.items():
        seen, out = set(), []
        for label, text in rows:
            text = text.replace("\t", " ")
            if text in seen:
                continue
            seen.add(text)
            out.append(f"{label}\t{json_line(text)}")
        header = ("# Generated by tests/scripts/corpus.py (do not edit): LABEL<TAB>PROMPT, the prompt's\n"
                  "# line breaks written as \\n. See src/docs/capture.md.\n")
        (HERE / name).write_text(header + "\n".join(out) + "\n", encoding="utf-8")
        print(name, len(out), sum(1 for l in out if l.startswith("correction")))


def json_line(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n")


if __name__ == "__main__":
    main()
