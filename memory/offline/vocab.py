"""Word lists of the offline extractor: they decide whether a capture is what a rule expects
("infermiera" is a job); values stay verbatim. Pure data.
"""

from __future__ import annotations

from typing import Final

from memory.offline.patterns import word_set

# Relatives and pets → one English key, so a line in one language replaces one of the same kind
# in another ("Wife is Laura" / "La moglie…").
RELATIONS: Final = {
    # English
    "wife": "wife", "husband": "husband", "partner": "partner", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "fiance": "fiancé", "fiancé": "fiancé", "fiancee": "fiancée",
    "fiancée": "fiancée", "son": "son", "sons": "sons", "daughter": "daughter",
    "daughters": "daughters", "kid": "child", "kids": "children", "child": "child",
    "children": "children", "mother": "mother", "mom": "mother", "mum": "mother",
    "father": "father", "dad": "father", "brother": "brother", "brothers": "brothers",
    "sister": "sister", "sisters": "sisters", "siblings": "siblings", "sibling": "sibling",
    "grandchildren": "grandchildren", "grandkids": "grandchildren", "twins": "twins",
    "dog": "dog", "dogs": "dogs", "cat": "cat", "cats": "cats", "baby": "baby",
    # Italian
    "moglie": "wife", "marito": "husband", "compagna": "partner", "compagno": "partner",
    "fidanzata": "girlfriend", "fidanzato": "boyfriend", "figlio": "son", "figli": "children",
    "figlia": "daughter", "figlie": "daughters", "bambino": "child", "bambina": "child",
    "bambini": "children", "bambine": "children", "madre": "mother", "mamma": "mother",
    "padre": "father", "papà": "father", "fratello": "brother", "fratelli": "brothers",
    "sorella": "sister", "sorelle": "sisters", "nipoti": "grandchildren", "gemelli": "twins",
    "cane": "dog", "cani": "dogs", "gatto": "cat", "gatti": "cats", "gatta": "cat",
    # French
    "femme": "wife", "mari": "husband", "compagne": "partner", "compagnon": "partner",
    "copine": "girlfriend", "copain": "boyfriend", "fils": "son", "fille": "daughter",
    "filles": "daughters", "enfant": "child", "enfants": "children", "mère": "mother",
    "maman": "mother", "père": "father", "papa": "father", "frère": "brother",
    "frères": "brothers", "sœur": "sister", "soeur": "sister", "sœurs": "sisters",
    "soeurs": "sisters", "petits-enfants": "grandchildren", "jumeaux": "twins",
    "jumelles": "twins", "chien": "dog", "chiens": "dogs", "chat": "cat", "chats": "cats",
    "chatte": "cat", "bébé": "baby",
    # Spanish
    "esposa": "wife", "mujer": "wife", "esposo": "husband", "marido": "husband",
    "pareja": "partner", "novia": "girlfriend", "novio": "boyfriend", "hijo": "son",
    "hijos": "children", "hija": "daughter", "hijas": "daughters", "niños": "children",
    "hermano": "brother", "hermanos": "brothers", "hermana": "sister",
    "hermanas": "sisters", "nietos": "grandchildren", "gemelos": "twins", "perro": "dog",
    "perros": "dogs", "perra": "dog", "gato": "cat", "gatos": "cats",
    # German
    "frau": "wife", "ehefrau": "wife", "mann": "husband", "ehemann": "husband",
    "freundin": "girlfriend", "freund": "boyfriend", "lebensgefährtin": "partner",
    "lebensgefährte": "partner", "sohn": "son", "söhne": "sons", "tochter": "daughter",
    "töchter": "daughters", "kind": "child", "kinder": "children", "mutter": "mother",
    "vater": "father", "bruder": "brother", "brüder": "brothers", "schwester": "sister",
    "schwestern": "sisters", "geschwister": "siblings", "enkel": "grandchildren",
    "enkelkinder": "grandchildren", "zwillinge": "twins", "hund": "dog", "hunde": "dogs",
    "katze": "cat", "katzen": "cats", "kater": "cat",
    # Portuguese
    "mulher": "wife", "namorada": "girlfriend", "namorado": "boyfriend", "companheira": "partner",
    "companheiro": "partner", "filho": "son", "filhos": "children", "filha": "daughter",
    "filhas": "daughters", "crianças": "children", "mãe": "mother", "pai": "father",
    "irmão": "brother", "irmãos": "brothers", "irmã": "sister", "irmãs": "sisters",
    "netos": "grandchildren", "gêmeos": "twins", "gémeos": "twins", "cão": "dog",
    "cachorro": "dog", "cães": "dogs", "cachorros": "dogs", "gata": "cat",
    # Young animals and diminutives, in the six languages
    "puppy": "dog", "puppies": "dogs", "kitten": "cat", "kittens": "cats",
    "cagnolino": "dog", "cagnolina": "dog", "cucciolo": "dog", "gattino": "cat",
    "gattina": "cat", "gattini": "cats", "chiot": "dog", "chiots": "dogs", "chaton": "cat",
    "chatons": "cats", "perrito": "dog", "perrita": "dog", "perritos": "dogs",
    "cachorrito": "dog", "gatito": "cat", "gatita": "cat", "gatitos": "cats",
    "welpe": "dog", "welpen": "dogs", "kätzchen": "cat", "cachorrinho": "dog",
    "cachorrinha": "dog", "gatinho": "cat", "gatinha": "cat", "gatinhos": "cats",
    # Other pets, in the six languages
    "rabbit": "rabbit", "rabbits": "rabbits", "bunny": "rabbit", "hamster": "hamster",
    "hamsters": "hamsters", "parrot": "parrot", "parrots": "parrots", "tortoise": "tortoise",
    "turtle": "turtle", "turtles": "turtles", "horse": "horse", "horses": "horses",
    "budgie": "budgie", "coniglio": "rabbit", "conigli": "rabbits", "criceto": "hamster",
    "pappagallo": "parrot", "tartaruga": "turtle", "tartarughe": "turtles", "cavallo": "horse",
    "lapin": "rabbit", "lapins": "rabbits", "perroquet": "parrot", "tortue": "turtle",
    "cheval": "horse", "conejo": "rabbit", "conejos": "rabbits", "hámster": "hamster",
    "loro": "parrot", "periquito": "budgie", "tortuga": "turtle", "tortugas": "turtles",
    "caballo": "horse", "kaninchen": "rabbit", "papagei": "parrot", "schildkröte": "turtle",
    "wellensittich": "budgie", "pferd": "horse", "coelho": "rabbit", "coelhos": "rabbits",
    "papagaio": "parrot", "cavalo": "horse",
    # Dog breeds: "Biscuit, my beagle" is a dog
    "beagle": "dog", "labrador": "dog", "retriever": "dog", "poodle": "dog", "dachshund": "dog",
    "terrier": "dog", "spaniel": "dog", "collie": "dog", "pug": "dog", "bulldog": "dog",
    "chihuahua": "dog", "corgi": "dog", "greyhound": "dog", "schnauzer": "dog",
    "bassotto": "dog", "barboncino": "dog", "teckel": "dog", "caniche": "dog", "dackel": "dog",
    "pudel": "dog", "carlino": "dog", "mops": "dog",
}  # fmt: skip
# Animals kept at home (the English keys of RELATIONS): "Has a dog named Rex", not "Dog is Rex".
PETS: Final = word_set("dog cat rabbit hamster parrot tortoise turtle horse budgie")
# One of each at a time: a newer "my wife is …" replaces the older line.
SINGLE_RELATIONS: Final = word_set(
    "wife husband partner boyfriend girlfriend fiancé fiancée mother father"
)

# Job nouns. English ones also decide that "I'm a …" is work, not a mood ("I'm a bit tired").
EN_JOBS: Final = word_set(
    "engineer developer programmer nurse doctor teacher lawyer designer manager accountant "
    "hygienist paramedic midwife firefighter "
    "consultant architect chef cook waiter waitress pharmacist journalist writer researcher "
    "scientist analyst driver pilot plumber electrician carpenter mechanic farmer dentist vet "
    "veterinarian surgeon physician therapist psychologist photographer translator musician "
    "artist student professor lecturer tutor director founder ceo cto cfo officer administrator "
    "clerk cashier librarian baker barista firefighter paramedic soldier freelancer "
    "entrepreneur tester technician editor producer actor actress dancer singer coach trainer "
    "instructor secretary receptionist recruiter economist banker broker marketer nanny "
    "caregiver cleaner builder welder janitor judge midwife optician copywriter illustrator "
    "gardener butcher postman carer hairdresser "
    "animator salesman saleswoman salesperson dev sysadmin counselor counsellor"
)
EN_JOB_SUFFIXES: Final = ("ologist", "ician", "grapher", "engineer", "developer", "manager")
JOBS: Final = word_set(
    # Italian
    "infermiere infermiera medico dottore dottoressa insegnante maestro maestra professore "
    "professoressa ingegnere programmatore programmatrice sviluppatore sviluppatrice avvocato "
    "avvocatessa architetto cuoco cuoca cameriere cameriera farmacista giornalista studente "
    "studentessa commercialista contabile psicologo psicologa ricercatore ricercatrice "
    "consulente elettricista idraulico veterinario veterinaria dentista fotografo fotografa "
    "traduttore traduttrice scrittore scrittrice musicista artista commesso commessa impiegato "
    "impiegata designer grafico grafica chirurgo chirurga poliziotto poliziotta "
    "receptionist cassiere cassiera barista manager segretario segretaria parrucchiere "
    "parrucchiera estetista autista tassista operaio operaia muratore "
    # French
    "infirmier infirmière médecin docteur professeur professeure enseignant enseignante "
    "instituteur institutrice ingénieur ingénieure développeur développeuse programmeur "
    "programmeuse avocat avocate architecte cuisinier cuisinière serveur serveuse pharmacien "
    "pharmacienne journaliste étudiant étudiante comptable psychologue chercheur chercheuse "
    "consultant consultante plombier vétérinaire dentiste photographe traducteur traductrice "
    "écrivain écrivaine musicien musicienne artiste vendeur vendeuse électricien boulanger "
    "boulangère policier policière "
    "professeure caissier caissière secrétaire coiffeur coiffeuse chauffeur ouvrier ouvrière "
    "réceptionniste manager designer graphiste "
    # Spanish
    "enfermero enfermera médico médica doctor doctora profesor profesora maestro maestra "
    "ingeniero ingeniera programador programadora desarrollador desarrolladora abogado abogada "
    "arquitecto arquitecta cocinero cocinera camarero camarera farmacéutico farmacéutica "
    "periodista estudiante contable contador contadora psicólogo psicóloga investigador "
    "investigadora consultor consultora electricista fontanero veterinario veterinaria "
    "dentista fotógrafo fotógrafa traductor traductora escritor escritora músico música "
    "artista vendedor vendedora diseñador diseñadora policía "
    "cajero cajera secretario secretaria peluquero peluquera taxista conductor conductora "
    "recepcionista camionero camionera obrero obrera "
    # German
    "arzt ärztin lehrer lehrerin ingenieur ingenieurin programmierer programmiererin "
    "entwickler entwicklerin softwareentwickler softwareentwicklerin anwalt anwältin "
    "rechtsanwalt rechtsanwältin architekt architektin koch köchin kellner kellnerin "
    "apotheker apothekerin journalist journalistin student studentin krankenschwester "
    "krankenpfleger pfleger pflegerin buchhalter buchhalterin psychologe psychologin "
    "forscher forscherin berater beraterin elektriker klempner tierarzt tierärztin zahnarzt "
    "zahnärztin fotograf fotografin übersetzer übersetzerin schriftsteller schriftstellerin "
    "musiker musikerin künstler künstlerin verkäufer verkäuferin designer designerin "
    "polizist polizistin bäcker bäckerin "
    "kassierer kassiererin sekretär sekretärin friseur friseurin fahrer fahrerin "
    "taxifahrer taxifahrerin krankenpflegerin erzieher erzieherin "
    # Portuguese
    "enfermeiro enfermeira médico médica professor professora engenheiro engenheira "
    "programador programadora desenvolvedor desenvolvedora advogado advogada arquiteto "
    "arquiteta arquitecto arquitecta cozinheiro cozinheira garçom garçonete empregado "
    "farmacêutico farmacêutica jornalista estudante contador contadora contabilista psicólogo "
    "psicóloga pesquisador pesquisadora investigador investigadora consultor consultora "
    "eletricista canalizador encanador veterinário veterinária dentista fotógrafo fotógrafa "
    "tradutor tradutora escritor escritora músico música artista vendedor vendedora designer "
    "polícia policial caixa secretário secretária cabeleireiro cabeleireira motorista "
    "taxista rececionista recepcionista operário operária "
    # Trades, in the five languages
    "falegname meccanico giardiniere panettiere pasticciere macellaio postino contadino "
    "agricoltore pompiere barbiere sarto pâtissier pâtissière menuisier mécanicien "
    "mécanicienne jardinier jardinière boucher bouchère facteur agriculteur agricultrice "
    "pompier carpintero carpintera mecánico mecánica jardinero jardinera panadero panadera "
    "carnicero carnicera cartero agricultor agricultora bombero bombera tischler tischlerin "
    "schreiner schreinerin mechaniker mechanikerin gärtner gärtnerin metzger metzgerin "
    "landwirt landwirtin feuerwehrmann carpinteiro mecânico mecânica jardineiro jardineira "
    "padeiro padeira açougueiro talhante carteiro agricultora bombeiro bombeira"
)

LANGUAGE_NAMES: Final = word_set(
    "english spanish german french italian portuguese japanese chinese mandarin cantonese "
    "russian arabic korean dutch swedish norwegian danish finnish polish greek turkish hindi "
    "urdu hebrew catalan romanian hungarian czech ukrainian tagalog filipino vietnamese thai "
    "indonesian malay swahili bengali punjabi tamil persian farsi "
    "inglese spagnolo tedesco francese italiano portoghese giapponese cinese russo arabo "
    "coreano olandese greco "
    "anglais espagnol allemand français italien portugais japonais chinois russe arabe coréen "
    "néerlandais grec "
    "inglés español alemán francés portugués japonés chino ruso árabe holandés griego catalán "
    "englisch spanisch deutsch französisch italienisch portugiesisch japanisch chinesisch "
    "russisch arabisch koreanisch niederländisch griechisch türkisch "
    "inglês espanhol alemão francês italiano português japonês chinês russo árabe coreano "
    "holandês grego"
)
# Connectors allowed between language names ("Spanish and a bit of German").
LANGUAGE_GLUE: Final = word_set(
    "and a bit of little some fluent fluently also too e un po' di poco anche et un peu de "
    "aussi y un poco de también und ein bisschen etwas auch um pouco de também o lo l' le il "
    "el das "
    # How well: "Je parle couramment arabe et français".
    "fluently couramment parfaitement bien correntemente fluentemente perfettamente bene "
    "con fluidez perfectamente fließend perfekt gut fluentemente perfeitamente bem"
)

INSTRUMENTS_AND_GAMES: Final = word_set(
    "piano guitar violin cello viola bass drums flute clarinet saxophone sax trumpet trombone "
    "harp ukulele banjo accordion organ keyboard harmonica oboe tennis football soccer "
    "cavaquinho bandolim pandeiro handball "
    "basketball volleyball baseball golf chess rugby hockey cricket squash badminton padel "
    "poker bridge "
    "pianoforte chitarra violino violoncello contrabbasso batteria flauto clarinetto "
    "sassofono tromba arpa fisarmonica calcio pallavolo pallacanestro basket scacchi "
    "guitare violon violoncelle contrebasse batterie flûte clarinette saxophone trompette "
    "harpe accordéon échecs foot "
    "guitarra violín violonchelo chelo contrabajo batería flauta clarinete saxofón trompeta "
    "arpa acordeón tenis fútbol baloncesto voleibol ajedrez pádel "
    "klavier gitarre geige violine cello schlagzeug flöte klarinette saxofon trompete harfe "
    "akkordeon fußball fussball handball volleyball schach tennis "
    "violão violino violoncelo bateria flauta trompete acordeão ténis tênis futebol basquete "
    "basquetebol vôlei voleibol xadrez basso basse bajo baixo"
)

MONTHS: Final = word_set(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
    "dicembre janvier février mars avril mai juin juillet août septembre octobre novembre "
    "décembre enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
    "diciembre januar februar märz april mai juni juli august september oktober november "
    "dezember janeiro fevereiro março abril maio junho julho agosto setembro outubro "
    "novembro dezembro"
)

# Count nouns of "I have two kids / a cat", per language (plurals and genders included).
COUNT_NOUNS_EN: Final = (
    r"(?:(?:little|younger|older|big|elder|twin|grown-up) )?(?:kids?|children|child|sons?|"
    r"daughters?|brothers?|sisters?|siblings?|grandchildren|grandkids|dogs?|cats?|twins|"
    r"kittens?|pupp(?:y|ies)|rabbits?|bunny|hamsters?|parrots?|tortoise|turtles?|horses?|"
    r"budgie)"
)
COUNT_NOUNS_IT: Final = (
    r"(?:figli[oe]?|figlia|bambin[ioae]|fratell[io]|sorell[ae]|nipoti|can[ei]|gatt[aio]|"
    r"gemelli|gattin[oia]|cagnolin[oa]|cuccioli?|conigli[o]?|criceto|pappagallo|tartarug[ah]e?|"
    r"cavallo)"
)
COUNT_NOUNS_FR: Final = (
    r"(?:enfants?|fils|filles?|frères?|s(?:œ|oe)urs?|petits-enfants|jumeaux|jumelles|chiens?|"
    r"chats?|chattes?|chatons?|chiots?|lapins?|hamster|perroquet|tortue|cheval)"
)
COUNT_NOUNS_ES: Final = (
    r"(?:hij[oa]s?|niñ[oa]s|herman[oa]s?|niet[oa]s|gemel[oa]s|perr(?:it)?[oa]s?|"
    r"gat(?:it)?[oa]s?|cachorrit[oa]s?|conejos?|hámster|loro|periquito|tortugas?|caballo)"
)
COUNT_NOUNS_DE: Final = (
    r"(?:kinder|kind|söhne|sohn|töchter|tochter|brüder|bruder|schwestern|schwester|"
    r"geschwister|enkel(?:kinder)?|zwillinge|hunde?|katzen?|kater|welpen?|kätzchen|kaninchen|"
    r"hamster|papagei|schildkröte|wellensittich|pferd)"
)
COUNT_NOUNS_PT: Final = (
    r"(?:filh[oa]s?|crianças|irmã(?:o|os|s)?|irmãos|net[oa]s|gêmeos|gémeos|cão|cães|"
    r"cachorr(?:inh)?[oa]s?|gat(?:inh)?[oa]s?|coelhos?|hamster|papagaio|periquito|tartaruga|"
    r"cavalo)"
)
NUM_EN: Final = r"a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}"
NUM_IT: Final = r"un'|una|uno|un|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|\d{1,2}"
NUM_FR: Final = r"une|un|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|\d{1,2}"
NUM_ES: Final = r"una|uno|un|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|\d{1,2}"
NUM_DE: Final = r"eine|einen|ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|\d{1,2}"
NUM_PT: Final = r"uma|um|dois|duas|três|quatro|cinco|seis|sete|oito|nove|dez|\d{1,2}"

# Health conditions, said as "I have …" ("I have asthma"); kept only on a remember request.
CONDITIONS: Final = word_set(
    "asthma diabetes epilepsy migraines migraine celiac coeliac adhd autism arthritis "
    "hypertension anxiety depression asma diabete epilessia emicrania celiachia ansia "
    "depressione asthme diabète épilepsie migraines migraine anxiété dépression maladie "
    "diabetes epilepsia migrañas ansiedad depresión celiaquía diabetes epilepsie migräne "
    "zöliakie angststörung depressionen depression asma epilepsia enxaqueca ansiedade "
    "depressão doença celíaca"
)

# Capitalised words after "I'm" that are no name ("I'm Italian", "I'm Back").
NOT_NAMES: Final = word_set(
    "italian french spanish german english american british canadian australian irish "
    "scottish welsh portuguese brazilian mexican japanese chinese indian russian polish dutch "
    "swiss austrian belgian greek turkish korean swedish norwegian danish finnish jewish "
    "muslim christian catholic vegan vegetarian sorry fine good ok okay back here home done "
    "ready glad happy sure tired busy new so not just also still really very the a an"
)

# Capitalised words after "ich bin", "soy", "sono", "je suis", "sou" that are no name.
NOT_NAMES_OTHER: Final = word_set(
    "deutscher deutsche österreicher österreicherin schweizer schweizerin italiener "
    "italienerin franzose französin spanier spanierin engländer engländerin amerikaner "
    "amerikanerin single rentner rentnerin vegetarier vegetarierin veganer veganerin mutter "
    "vater christ christin muslim muslimin jude jüdin fan anfänger anfängerin experte "
    "expertin hier da zurück wieder fertig berliner berlinerin hamburger hamburgerin münchner "
    "münchnerin kölner kölnerin wiener wienerin bayer bayerin schüler schülerin azubi mama "
    "papa oma opa hausfrau hausmann "
    "italiano italiana francese spagnolo spagnola tedesco tedesca inglese americano americana "
    "español española mexicano mexicana argentino argentina colombiano colombiana "
    "alemán alemana francés francesa inglés inglesa "
    "français française italien italienne espagnol espagnole allemand allemande anglais "
    "anglaise belge suisse canadien canadienne "
    "português portuguesa brasileiro brasileira alemão alemã francês inglês "
    "yo io je eu moi ich sono soy sou ok okay"
)

# Everyday activities said as "I do …" ("je fais de la randonnée", "faccio yoga"), per language.
ACTIVITIES: Final = word_set(
    "yoga pilates hiking climbing bouldering running jogging swimming cycling skiing "
    "snowboarding surfing sailing diving fishing gardening knitting sewing painting drawing "
    "photography pottery dancing boxing karate judo crossfit archery rowing kayaking skating "
    "arrampicata escursionismo escursioni trekking corsa nuoto ciclismo bici bicicletta sci "
    "vela immersioni pesca giardinaggio maglia uncinetto cucito pittura disegno fotografia "
    "ceramica danza ballo boxe palestra equitazione canottaggio running "
    "escalade randonnée randonnées course footing natation vélo cyclisme ski voile plongée "
    "pêche jardinage tricot couture peinture dessin photographie poterie céramique danse "
    "karaté équitation aviron musculation "
    "escalada senderismo natación bici esquí buceo jardinería punto costura pintura dibujo "
    "fotografía cerámica baile boxeo kárate equitación remo "
    "klettern bouldern wandern laufen joggen schwimmen radfahren skifahren snowboarden "
    "surfen segeln tauchen angeln gärtnern stricken nähen malen zeichnen fotografie töpfern "
    "tanzen boxen reiten rudern kraftsport sport "
    "ioga caminhada caminhadas trilhas trilha corrida natação ciclismo bicicleta esqui "
    "mergulho jardinagem tricô desenho dança caratê judô equitação musculação surf"
)
# English gerunds of "I go hiking" (the activity goes on, a trip does not).
GO_ACTIVITIES: Final = word_set(
    "hiking climbing bouldering running jogging swimming cycling biking skiing snowboarding "
    "surfing sailing diving fishing dancing skating kayaking rowing camping"
)

# What one drinks or not ("I don't drink alcohol", "Não tomo leite"): a diet fact.
DRINKS: Final = word_set(
    "milk alcohol coffee beer wine tea soda caffeine dairy latte alcol alcolici caffè birra "
    "vino lait alcool café bière vin leche alcohol cerveza vino milch alkohol kaffee bier wein "
    "leite álcool cerveja vinho lactose lattosio lactosa laktose"
)
