/**
 * Loads each library named on the command line with System.load and says so ("LOADED <path>"); a library
 * that cannot be loaded ends the program with the loader's message.
 */
public class LoadCopies {
    public static void main(String[] args) {
        for (String path : args) {
            System.load(path);
            System.out.println("LOADED " + path);
        }
    }
}
